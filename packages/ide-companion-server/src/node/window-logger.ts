/** The part of Theia's ILogger the node services use; tests pass a recording one. */
export interface WindowLogger {
    debug(message: string): unknown;
    info(message: string): unknown;
    warn(message: string): unknown;
    error(message: string): unknown;
}
