/**
 * Where the window's own doings are told to the user (the "CLI Companion" output channel): what the
 * companion wrote, ran or refused. Never tokens, never file contents.
 */
export const CompanionLog = Symbol('CompanionLog');
export interface CompanionLog {
    info(message: string): void;
    warn(message: string): void;
    error(message: string): void;
}
