// IDE mode's common code: the diagnostic report, built by the Theia-free server package that the VS Code host shares.
export { buildDiagnosticReport, DiagnosticReportInput } from '@theia-cli-companion/ide-companion-server/lib/common';
