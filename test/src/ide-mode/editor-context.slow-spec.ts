import { expect } from 'chai';
import * as path from 'path';
import { IdeProbe } from '../hosts/ide-probe';
import { CONTEXT_SCENARIO_FILES, CONTEXT_SCENARIOS, contextMatching } from '../scenarios/context-scenarios';
import { Testbed } from '../support/testbed';
import { TheiaWindow } from '../hosts/theia-window';

/** What the user sees in the editor is what the real CLI clients receive, per window. */
describe('Editor context: the CLI knows what the user is looking at in its window', function (): void {
    this.timeout(300000);
    const bed = Testbed.install('project', CONTEXT_SCENARIO_FILES);
    let workspace: string;
    before(() => workspace = bed.workspace);

    async function connect(env: Record<string, string>, flavour: 'gemini' | 'qwen' = 'gemini'): Promise<IdeProbe> {
        const probe = bed.probe(flavour, env, workspace);
        expect((await probe.connected()).status.status).to.equal('connected');
        return probe;
    }

    async function windowWithProbe(flavour: 'gemini' | 'qwen' = 'gemini'): Promise<{ window: TheiaWindow; probe: IdeProbe }> {
        const window = await bed.openWindow();
        await window.openTerminal();
        return { window, probe: await connect(await window.terminalEnvironment(workspace), flavour) };
    }

    // The stories the code-server spec runs too, from the same source.
    for (const scenario of CONTEXT_SCENARIOS) {
        it(scenario.title, async () => {
            const { window, probe } = await windowWithProbe();
            await scenario.run({ window, client: probe, workspace, connect: env => connect(env) });
        });
    }

    it('keeps each window\'s files to its own CLIs (Gemini CLI in one window, Qwen Code in the other)', async () => {
        const a = await windowWithProbe('gemini');
        const b = await windowWithProbe('qwen');
        await a.window.openFile('context/alpha.ts');
        await b.window.openFile('context/gamma.txt');
        const filesA = await contextMatching(a.probe, f => f[0]?.path === path.join(workspace, 'context', 'alpha.ts'), 'window A state');
        const filesB = await contextMatching(b.probe, f => f[0]?.path === path.join(workspace, 'context', 'gamma.txt'), 'window B state');
        expect(filesA.map(f => f.path)).to.not.include(path.join(workspace, 'context', 'gamma.txt'));
        expect(filesB.map(f => f.path)).to.not.include(path.join(workspace, 'context', 'alpha.ts'));
    });
});
