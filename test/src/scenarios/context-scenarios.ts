import { expect } from 'chai';
import * as path from 'path';
import { IdeProbe, ProbeReport } from '../hosts/ide-probe';
import { until } from '../support/processes';
import { Scenario } from './scenario';

/** One open file as the IDE tells a CLI about it. */
export interface ContextFile { path: string; timestamp: number; isActive?: boolean; cursor?: { line: number; character: number }; selectedText?: string }

/** The files the context scenarios open: each host's spec puts them into its workspace. */
export const CONTEXT_SCENARIO_FILES: Readonly<Record<string, string>> = {
    'context/alpha.ts': 'line one\nline two\nconst answer = 42;\nline four\n',
    'context/beta.md': '# Beta\n\nSome text.\n',
    'context/gamma.txt': 'gamma\n'
};

function filesOf(report: ProbeReport): ContextFile[] {
    return (report.context as { workspaceState?: { openFiles?: ContextFile[] } } | null)?.workspaceState?.openFiles ?? [];
}

/** Asks the client for the context the IDE sent it until its open files match `predicate`, and returns them. */
export async function contextMatching(client: IdeProbe, predicate: (files: ContextFile[]) => boolean, what: string): Promise<ContextFile[]> {
    let last: ContextFile[] = [];
    try {
        return await until(async () => {
            last = filesOf(await client.status());
            return predicate(last) && last;
        }, what, 20000, 200);
    } catch (error) {
        throw new Error(`${(error as Error).message}; last context: ${JSON.stringify(last)}`);
    }
}

/** What the user sees in the editor is what the real CLI client receives: the same stories on every host. */
export const CONTEXT_SCENARIOS: readonly Scenario[] = [{
    title: 'reports the active file, its cursor and its selection as the editor shows them; the file opened next comes first, a closed one goes',
    async run({ window, client, workspace }): Promise<void> {
        const alpha = path.join(workspace, 'context', 'alpha.ts');
        const beta = path.join(workspace, 'context', 'beta.md');
        await window.openFile('context/alpha.ts');
        await window.goTo(3, 7);
        let files = await contextMatching(client, f => f[0]?.path === alpha && f[0].cursor?.line === 3 && f[0].cursor?.character === 7, 'alpha.ts at 3:7');
        expect(files[0]).to.include({ path: alpha, isActive: true });
        expect(((await client.status()).context as { workspaceState: { isTrusted?: boolean } }).workspaceState.isTrusted, 'a trusted folder').to.equal(true);

        // "answer": the 6 characters right of the cursor.
        await window.selectRight(6);
        files = await contextMatching(client, f => f[0]?.selectedText === 'answer', 'the selection');
        expect(files[0].cursor).to.deep.equal({ line: 3, character: 13 });

        await window.openFile('context/beta.md');
        files = await contextMatching(client, f => f[0]?.path === beta && f[0].isActive === true && f.some(file => file.path === alpha), 'beta.md active, alpha.ts listed');
        const before = files.find(file => file.path === alpha)!;
        expect(before.isActive).to.not.equal(true);
        expect(before.cursor, 'only the active file has a cursor').to.equal(undefined);
        expect(files[0].timestamp).to.be.greaterThan(before.timestamp);

        await window.closeEditor('beta.md');
        files = await contextMatching(client, f => !f.some(file => file.path === beta), 'beta.md closed');
        expect(files[0].path).to.equal(alpha);
    }
}, {
    title: 'gives a newly connected CLI the current state at once',
    async run({ window, workspace, connect }): Promise<void> {
        await window.openFile('context/gamma.txt');
        await window.goTo(1, 3);
        await window.openTerminal();
        const late = await connect(await window.terminalEnvironment(workspace));
        // The state arrives on the event stream right after connecting; ask until it is there.
        const files = await contextMatching(late, f => f[0]?.path === path.join(workspace, 'context', 'gamma.txt'), 'the state for a late session');
        expect(files[0]).to.include({ isActive: true });
    }
}, {
    title: 'keeps following the editor after a diff in front of it was accepted and closed',
    async run({ window, client, workspace }): Promise<void> {
        const alpha = path.join(workspace, 'context', 'alpha.ts');
        const proposed = path.join(workspace, 'context', 'proposed.txt');
        await window.openFile('context/alpha.ts');
        await window.goTo(2, 1);
        await contextMatching(client, f => f[0]?.path === alpha && f[0].cursor?.line === 2, 'alpha.ts at line 2');
        client.openDiff(proposed, 'from the CLI\n');
        await window.waitForDiff('proposed.txt');
        await window.acceptDiff();
        expect((await client.diffOutcome('diff', proposed)).result?.status).to.equal('accepted');
        await window.waitForNoDiff();
        // alpha.ts is in front again: the CLI sees it active, and its cursor moves are followed again.
        await window.page.keyboard.press('ArrowDown');
        const files = await contextMatching(client, f => f[0]?.path === alpha && f[0].isActive === true && f[0].cursor?.line === 3, 'alpha.ts active at line 3');
        expect(files[0].cursor).to.deep.equal({ line: 3, character: 1 });
    }
}];
