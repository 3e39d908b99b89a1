import { WindowLogger } from '../window-logger';

/** Keeps every line logged, so tests can assert on messages and on what must never be logged. */
export class RecordingLogger implements WindowLogger {
    readonly lines: string[] = [];
    debug(message: string): void { this.lines.push(`DEBUG ${message}`); }
    info(message: string): void { this.lines.push(`INFO ${message}`); }
    warn(message: string): void { this.lines.push(`WARN ${message}`); }
    error(message: string): void { this.lines.push(`ERROR ${message}`); }
}
