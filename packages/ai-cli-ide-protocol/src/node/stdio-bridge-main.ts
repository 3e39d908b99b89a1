#!/usr/bin/env node
import { McpStdioBridge } from './stdio-bridge';
import { describeError } from '@theia-cli-companion/cli-process/lib/common';

/**
 * `node stdio-bridge-main.js --discovery <file>`: started by a CLI from a discovery file's `stdio`
 * entry. Diagnostics go to stderr (the CLI shows them in its debug log); stdout carries MCP only.
 */
async function main(argv: string[]): Promise<number> {
    const index = argv.indexOf('--discovery');
    const discoveryFile = index >= 0 ? argv[index + 1] : undefined;
    if (!discoveryFile) {
        process.stderr.write('usage: ai-cli-ide-stdio-bridge --discovery <discovery-file>\n');
        return 2;
    }
    const bridge = new McpStdioBridge({
        discoveryFile,
        stdin: process.stdin,
        stdout: process.stdout,
        log: message => process.stderr.write(`[theia-companion-bridge] ${message}\n`)
    });
    try {
        await bridge.start();
    } catch (error) {
        process.stderr.write(`[theia-companion-bridge] cannot start: ${describeError(error)}\n`);
        return 1;
    }
    await bridge.whenClosed();
    return 0;
}

main(process.argv.slice(2)).then(code => process.exit(code), error => {
    process.stderr.write(`ai-cli-ide-stdio-bridge: ${describeError(error)}\n`);
    process.exit(1);
});
