import { StdioConfig } from '@theia-cli-companion/ai-cli-ide-protocol/lib/common';

/**
 * The discovery files' `stdio` entry: Node running our bridge script with the file to read.
 * Resolved at run time from the installed protocol package so it also works from a bundled backend.
 * Undefined when the script cannot be found; the HTTP path still works outside containers.
 */
export function stdioBridgeCommand(discoveryFile: string): StdioConfig | undefined {
    const script = resolveBridgeScript();
    return script ? { command: process.execPath, args: [script, '--discovery', discoveryFile] } : undefined;
}

let cachedScript: string | null | undefined;
export function resolveBridgeScript(): string | undefined {
    if (cachedScript === undefined) {
        try {
            cachedScript = require.resolve('@theia-cli-companion/ai-cli-ide-protocol/lib/node/stdio-bridge-main.js');
        } catch {
            cachedScript = null;
        }
    }
    return cachedScript ?? undefined;
}
