/** Where the ACP client reports what happened; a Theia ILogger or the console fit. Never given secrets. */
export interface AcpLogger {
    debug(message: string): void;
    info(message: string): void;
    warn(message: string): void;
    error(message: string): void;
}
