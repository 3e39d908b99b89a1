// IDE mode's own common code: the command line "Run <CLI>" starts and the diagnostic report.
export * from './cli-command-line';
export * from './diagnostic-report';
