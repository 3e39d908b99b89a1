import * as path from 'path';
import { REPO_ROOT } from '../hosts/theia-backend';

/**
 * Where the real clients the tests run (Gemini CLI, Qwen Code, Claude Code, the ACP adapters) are
 * installed: this repository's pinned ones, or, for `npm run test:latest`, the newest published ones
 * that scripts/test-latest.mjs installs into the folder THEIA_CLI_COMPANION_CLIENTS names.
 */
export const CLIENTS_ROOT = process.env.THEIA_CLI_COMPANION_CLIENTS || REPO_ROOT;

/** A file of an installed client package (`clientPath('.bin', 'claude')`). */
export function clientPath(...segments: string[]): string {
    return path.join(CLIENTS_ROOT, 'node_modules', ...segments);
}
