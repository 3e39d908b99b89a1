// IDE mode contributes its flavours and Claude Code's endpoint to every window through
// WindowModuleContribution (ide-companion-backend-module); nothing else is meant for other packages.
export {};
