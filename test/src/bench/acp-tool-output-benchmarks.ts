import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { AcpAgent, AcpClientServices } from '@theia-cli-companion/acp-client/lib/node';
import { boundToolCall, boundUpdate } from '@theia-cli-companion/acp-client/lib/common';

const FAKE_AGENT = require.resolve('@theia-cli-companion/acp-client/lib/node/test/fake-acp-agent-main.js');

/**
 * What the backend's side of an ACP chat holds for a tool call printing 50,000 lines (heap after a
 * collection, and the peak RSS while it arrives), and how much of it goes to the window, against a
 * short turn in the same run. Not part of the test command:
 * `node --expose-gc test/lib/bench/acp-tool-output-memory.js [turns]`.
 */
async function main(): Promise<void> {
    const collect = (globalThis as { gc?: () => void }).gc;
    if (!collect) {
        throw new Error('Run with node --expose-gc');
    }
    const turns = Number(process.argv[2] ?? 1);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'acp-output-memory-'));
    let toWindow = 0;
    const services: AcpClientServices = {
        onUpdate: (_session, update, toolCall) => {
            toWindow += JSON.stringify(boundUpdate(update)).length + JSON.stringify(toolCall ? boundToolCall(toolCall).state : {}).length;
        },
        askPermission: async () => ({ outcome: 'cancelled' }),
        readTextFile: async () => ({ content: '' }),
        writeTextFile: async () => undefined,
        terminals: {
            create: async () => { throw new Error('no terminals here'); },
            output: async () => ({ output: '', truncated: false }),
            waitForExit: async () => ({ exitCode: 0, signal: null }),
            kill: async () => undefined,
            release: async () => undefined
        }
    };
    const quiet = { debug: () => undefined, info: () => undefined, warn: () => undefined, error: () => undefined };
    const agent = new AcpAgent({ command: process.execPath, args: [FAKE_AGENT], cwd: dir, env: { PATH: process.env.PATH, FAKE_AGENT_LOG: path.join(dir, 'agent.jsonl') } },
        services, quiet);
    try {
        await agent.initialize({ name: 'bench', version: '0' });
        const session = await agent.newSession({ cwd: dir, mcpServers: [] });
        const turn = async (text: string) => {
            collect();
            const before = process.memoryUsage();
            let peakRss = before.rss;
            const sampler = setInterval(() => { peakRss = Math.max(peakRss, process.memoryUsage().rss); }, 5);
            const sentBefore = toWindow;
            const start = process.hrtime.bigint();
            for (let i = 0; i < turns; i++) {
                await session.prompt([{ type: 'text', text }]);
            }
            const ms = Number(process.hrtime.bigint() - start) / 1e6;
            clearInterval(sampler);
            collect();
            const mib = (bytes: number) => +(bytes / 1048576).toFixed(1);
            return { ms: Math.round(ms), heapRetainedMiB: mib(process.memoryUsage().heapUsed - before.heapUsed), peakRssGrowthMiB: mib(peakRss - before.rss),
                toWindowKiB: Math.round((toWindow - sentBefore) / 1024) };
        };
        const baseline = await turn('echo a short turn');
        const flood = await turn('flood 50000');
        console.log(JSON.stringify({ turns, baseline, flood }));
    } finally {
        await agent.dispose();
        fs.rmSync(dir, { recursive: true, force: true });
    }
}

main().catch(error => {
    console.error(error);
    process.exitCode = 1;
});
