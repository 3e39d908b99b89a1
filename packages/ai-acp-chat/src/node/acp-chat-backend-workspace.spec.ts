import { execFileSync } from 'child_process';
import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import { Container } from '@theia/core/shared/inversify';
import { ProcessManager } from '@theia/process/lib/node/process-manager';
import { until } from '@theia-cli-companion/ide-companion-server/lib/node/test';
import { AcpChatBackendImpl } from './acp-chat-backend-impl';
import { AcpTerminalHost } from './acp-terminal-host';
import { AcpBackendTestbed, FAKE_AGENT, expectRejected } from './test/acp-backend-testbed';

/**
 * The window's backend service with a scripted agent, on the workspace boundary: the agent's reads and
 * writes (through the window's editors, links planted between check and use, pipes, large files) and
 * its commands in real pseudo-terminals, each chat's to its own agent.
 */
describe('AcpChatBackendImpl: the agent\'s files and terminals', function (): void {
    this.timeout(20000);
    const bed = new AcpBackendTestbed();
    const { reads, written, logged, messages, shown } = bed;
    let root: string;
    let outside: string;
    let backend: AcpChatBackendImpl;
    let container: Container;

    beforeEach(() => {
        bed.setUp();
        ({ root, outside, backend, container } = bed);
    });

    afterEach(() => bed.tearDown());

    const start = (command?: string) => bed.start(command);

    it('serves reads through the window, and writes inside the workspace itself, with the user\'s edits, telling the window', async () => {
        await start();
        const target = path.join(root, 'new.txt');
        const result = await backend.prompt('chat-1', [{ type: 'text', text: `write ${target} hello there` }]);
        expect(result).to.deep.include({ ok: true, stopReason: 'end_turn' });
        expect(reads).to.deep.equal([target]);
        expect(fs.readFileSync(target, 'utf8')).to.equal('hello there\n');
        expect(written).to.deep.equal([target]);
        bed.onEditedContentFor = request => request.content === 'again\n' ? 'again, as the user edited it\n' : undefined;
        expect(await backend.prompt('chat-1', [{ type: 'text', text: `write ${target} again` }])).to.deep.include({ ok: true });
        expect(fs.readFileSync(target, 'utf8')).to.equal('again, as the user edited it\n');
    });

    it('puts the reviewed text over an agent\'s own write only when the file holds exactly its proposal, inside the workspace only', async () => {
        await start();
        const target = path.join(root, 'self-written.txt');
        fs.writeFileSync(target, 'the agent\'s text\n');
        expect(await backend.readForReview('chat-1', target)).to.equal('the agent\'s text\n');
        expect(await backend.readForReview('chat-1', path.join(root, 'missing.txt'))).to.equal(undefined);
        expect(await backend.replaceWritten('chat-1', target, 'something else\n', 'reviewed\n'), 'not the proposal').to.equal(false);
        expect(fs.readFileSync(target, 'utf8')).to.equal('the agent\'s text\n');
        expect(await backend.replaceWritten('chat-1', target, 'the agent\'s text\n', 'reviewed\n')).to.equal(true);
        expect(fs.readFileSync(target, 'utf8')).to.equal('reviewed\n');
        expect(written).to.include(target);
        const secret = path.join(outside, 'secret.txt');
        fs.writeFileSync(secret, 'outside\n');
        for (const call of [() => backend.readForReview('chat-1', secret), () => backend.replaceWritten('chat-1', secret, 'outside\n', 'overwritten\n'),
            () => backend.replaceWritten('chat-1', target, 42 as unknown as string, 'x')]) {
            await call().then(() => expect.fail('not refused'), error => expect(String(error)).to.match(/outside the workspace folders|Expected string/));
        }
        expect(fs.readFileSync(secret, 'utf8')).to.equal('outside\n');
    });

    it('tells Follow the Agent where a reported path lands: a link up out of the repository or a dangling one is outside', async () => {
        await start();
        fs.mkdirSync(path.join(root, 'src'));
        fs.writeFileSync(path.join(root, 'src', 'a.md'), 'a\n');
        // A repository's `up -> ../../..` (up to /): the secret, spelled as a path inside the workspace.
        fs.symlinkSync(path.relative(root, '/'), path.join(root, 'up'));
        fs.symlinkSync(path.join(outside, 'not-yet.md'), path.join(root, 'dangling.md'));
        fs.symlinkSync('src', path.join(root, 'docs'));
        const landing = (filePath: string, chat = 'chat-1') => backend.landingInWorkspace(chat, filePath);
        expect(await landing(path.join(root, 'up', outside, 'secret.txt'))).to.equal(undefined);
        expect(await landing(path.join(root, 'escape', 'secret.txt'))).to.equal(undefined);
        expect(await landing(path.join(root, 'dangling.md'))).to.equal(undefined);
        expect(await landing('src/a.md'), 'a relative path').to.equal(undefined);
        expect(await landing(path.join(root, 'src', 'a.md'), 'chat-2'), 'a chat the backend does not know').to.equal(undefined);
        expect(await landing(path.join(root, 'docs', 'a.md')), 'a link that stays inside').to.equal(path.join(root, 'src', 'a.md'));
        expect(await landing(path.join(root, 'new.md')), 'a file not written yet').to.equal(path.join(root, 'new.md'));
        await expectRejected(landing(42 as unknown as string));
    });

    it('reads an open editor\'s text (unsaved edits included), else the disk, line ranges as asked', async () => {
        await start();
        const file = path.join(root, 'lines.txt');
        fs.writeFileSync(file, 'one\ntwo\nthree\n');
        const said = async (text: string) => {
            messages.length = 0;
            expect(await backend.prompt('chat-1', [{ type: 'text', text }])).to.deep.include({ ok: true });
            return JSON.parse(messages.join(''));
        };
        expect(await said(`read ${file}`)).to.equal('one\ntwo\nthree\n');
        expect(await said(`read ${file} 2 1`)).to.equal('two');
        expect(await said(`read ${path.join(root, 'missing.txt')}`)).to.equal('');
        bed.onOpenEditorText = filePath => filePath === file ? 'one\nedited, not saved\n' : undefined;
        expect(await said(`read ${file} 2 1`)).to.equal('edited, not saved');
    });

    it('a link made between the check and the read does not hand the agent another file', async () => {
        await start();
        const target = path.join(root, 'notes.md');
        const secret = path.join(outside, 'secret.txt');
        fs.writeFileSync(secret, 'the secret');
        // The window is asked for an open editor after the backend checked the path: the link appears then.
        bed.onOpenEditorText = () => {
            fs.symlinkSync(secret, target);
            return undefined;
        };
        const result = await backend.prompt('chat-1', [{ type: 'text', text: `read ${target}` }]);
        expect(result.ok).to.equal(false);
        expect(!result.ok && result.message).to.match(/symbolic link|outside the workspace folders/);
        expect(messages.join('')).to.not.contain('the secret');
        expect(logged.some(line => line.includes('refused the agent\'s read'))).to.equal(true, logged.join('\n'));
    });

    it('reads neither a named pipe (which would never answer) nor more than it may hold', async () => {
        await start();
        const fifo = path.join(root, 'pipe');
        execFileSync('mkfifo', [fifo]);
        const result = await backend.prompt('chat-1', [{ type: 'text', text: `read ${fifo}` }]);
        expect(!result.ok && result.message).to.contain(`${fifo} is not a regular file`);
        const big = path.join(root, 'big.bin');
        fs.writeFileSync(big, '');
        fs.truncateSync(big, 16 * 1024 * 1024 + 1);
        const tooBig = await backend.prompt('chat-1', [{ type: 'text', text: `read ${big}` }]);
        expect(!tooBig.ok && tooBig.message).to.contain('more than the 16777216 an agent may read at once');
    });

    it('refuses a write through a dangling link to outside the workspace, creating nothing there', async () => {
        await start();
        const notes = path.join(root, 'notes.md');
        fs.symlinkSync('../outside/authorized_keys', notes);
        const result = await backend.prompt('chat-1', [{ type: 'text', text: `put ${notes} ssh-ed25519 AAAA attacker` }]);
        expect(result.ok).to.equal(false);
        expect(!result.ok && result.message).to.contain(`${notes} is outside the workspace folders (${root}) (it leads to ${path.join(outside, 'authorized_keys')})`);
        expect(fs.existsSync(path.join(outside, 'authorized_keys')), 'nothing created outside').to.equal(false);
        expect(written).to.deep.equal([]);
    });

    it('a link made between the check and the write does not redirect the write', async () => {
        await start();
        const target = path.join(root, 'new.txt');
        const planted = path.join(outside, 'planted.txt');
        // The window is asked for the user's edits after the backend checked the path: the link appears then.
        bed.onEditedContentFor = () => {
            fs.symlinkSync(planted, target);
            return undefined;
        };
        const result = await backend.prompt('chat-1', [{ type: 'text', text: `write ${target} redirected` }]);
        expect(reads).to.deep.equal([target]);
        expect(result.ok).to.equal(false);
        expect(!result.ok && result.message).to.contain(`${target} is outside the workspace folders`);
        expect(fs.existsSync(planted), 'nothing created outside').to.equal(false);
        expect(written).to.deep.equal([]);
    });

    it('refuses paths outside the workspace folders, through symlinks too, and keeps serving', async () => {
        await start();
        for (const target of [path.join(outside, 'secret.txt'), path.join(root, 'escape', 'secret.txt'), path.join(root, '..', 'outside', 'secret.txt')]) {
            const result = await backend.prompt('chat-1', [{ type: 'text', text: `read ${target}` }]);
            expect(result.ok, target).to.equal(false);
            expect(!result.ok && result.message).to.match(/outside the workspace folders/);
        }
        expect(reads).to.deep.equal([]);
        expect(logged.some(line => line.includes('refused the agent access'))).to.equal(true);
        expect(await backend.prompt('chat-1', [{ type: 'text', text: 'echo still serving' }])).to.deep.include({ ok: true });
    });

    it('runs the agent\'s command in a real pseudo-terminal the window can attach to, with the output limit and exit code', async () => {
        await start();
        const result = await backend.prompt('chat-1', [{ type: 'text', text: 'terminal printf "%080d" 7; printf "\\nend\\n"; exit 4' }]);
        expect(result).to.deep.include({ ok: true, stopReason: 'end_turn' });
        const reported = JSON.parse(messages.join(''));
        expect(reported.exit).to.deep.equal({ exitCode: 4, signal: null });
        expect(reported.output.truncated).to.equal(true);
        expect(reported.output.output).to.match(/^0*7\nend\n$/);
        expect(Buffer.byteLength(reported.output.output)).to.be.at.most(64);
        expect(shown).to.have.length(1);
        expect(shown[0].title).to.match(/^Fake: sh -c printf/);
        // The process is still known to Theia, so a terminal widget attaching late shows its output.
        expect(container.get(ProcessManager).get(shown[0].processId)).to.not.equal(undefined);
    });

    it('refuses a command outside the workspace folders and an unknown terminal', async () => {
        const host = container.get(AcpTerminalHost);
        const outsideRun = await host.create('chat-1', { sessionId: 's', command: 'true', cwd: outside }, root, [root]).then(() => undefined, (error: Error) => error.message);
        expect(outsideRun).to.equal(`The command's working folder ${outside} is outside the workspace folders (${root})`);
        expect(() => host.output('chat-1', { sessionId: 's', terminalId: 'acp-terminal-999' })).to.throw(/Unknown terminal acp-terminal-999/);
        const missing = await host.create('chat-1', { sessionId: 's', command: 'no-such-command-here' }, root, [root]).then(() => undefined, (error: Error) => error.message);
        expect(missing).to.match(/Could not run no-such-command-here/);
    });

    it('kills a running command on request and keeps its output readable until released', async () => {
        const host = container.get(AcpTerminalHost);
        const { terminalId } = await host.create('chat-1', { sessionId: 's', command: 'sh', args: ['-c', 'echo started; sleep 30'] }, root, [root]);
        while (!host.output('chat-1', { sessionId: 's', terminalId }).output.includes('started')) {
            await new Promise(resolve => setTimeout(resolve, 20));
        }
        host.kill('chat-1', { sessionId: 's', terminalId });
        const exit = await host.waitForExit('chat-1', { sessionId: 's', terminalId }, new AbortController().signal);
        expect(exit.signal ?? exit.exitCode).to.not.equal(null);
        expect(host.output('chat-1', { sessionId: 's', terminalId }).output).to.equal('started\n');
        host.release('chat-1', { sessionId: 's', terminalId });
        expect(() => host.output('chat-1', { sessionId: 's', terminalId })).to.throw(/Unknown terminal/);
    });

    it('keeps the last 1 MiB of a command\'s output when the agent gives no limit, and says it was truncated', async () => {
        const host = container.get(AcpTerminalHost);
        // Paced: Theia's terminal ring buffer (1 MiB) drops what a reader has not taken yet when one burst
        // outruns it, and this test is about our cap, not about that.
        const paced = 'for i in $(seq 130); do head -c 10000 /dev/zero | tr "\\0" x; sleep 0.01; done; echo; echo end';
        const { terminalId } = await host.create('chat-1', { sessionId: 's', command: 'sh', args: ['-c', paced] }, root, [root]);
        await until(() => host.output('chat-1', { sessionId: 's', terminalId }).output.endsWith('\nend\n'), 'the whole output', 15000).catch(error => {
            const { output, exitStatus } = host.output('chat-1', { sessionId: 's', terminalId });
            throw new Error(`${error.message}: ${output.length} characters, ending ${JSON.stringify(output.slice(-40))}, exit ${JSON.stringify(exitStatus)}`);
        });
        const { output, truncated } = host.output('chat-1', { sessionId: 's', terminalId });
        expect(truncated).to.equal(true);
        expect(Buffer.byteLength(output)).to.equal(1024 * 1024);
        expect(output).to.match(/^x+\nend\n$/);
    });

    it('keeps each chat\'s terminals to its own agent: another chat\'s agent cannot read, stop or release them', async () => {
        await start();
        const agent = { name: 'Fake', command: process.execPath, args: [FAKE_AGENT], env: { FAKE_AGENT_LOG: path.join(path.dirname(root), 'agent.jsonl') } };
        expect(await backend.startSession({ chatSessionId: 'chat-2', cwd: root, roots: [root], agent })).to.deep.include({ ok: true });
        const said = async (chat: string, text: string) => {
            messages.length = 0;
            expect(await backend.prompt(chat, [{ type: 'text', text }])).to.deep.include({ ok: true });
            return messages.join('');
        };
        const terminalId = await said('chat-1', 'spawn echo started; sleep 30');
        expect(terminalId).to.match(/^acp-terminal-\d+$/);
        // `wait` last: on a foreign terminal that is allowed, it would wait for the whole sleep.
        for (const operation of ['output', 'kill', 'release', 'wait']) {
            expect(JSON.parse(await said('chat-2', `poke ${operation} ${terminalId}`)), operation).to.have.property('error').that.is.a('string');
        }
        const own = JSON.parse(await said('chat-1', `poke output ${terminalId}`));
        expect(own.answer).to.deep.include({ exitStatus: null, truncated: false });
        const host = container.get(AcpTerminalHost);
        expect(() => host.output('chat-2', { sessionId: 's', terminalId })).to.throw(`Unknown terminal ${terminalId}`);
        // A chat that closes takes its commands with it.
        await backend.closeSession('chat-1');
        expect(() => host.output('chat-1', { sessionId: 's', terminalId })).to.throw(/Unknown terminal/);
    });

    it('resolves the workspace folders\' symlinks before checking paths against them', async () => {
        const linkedRoot = path.join(path.dirname(root), 'linked-workspace');
        fs.symlinkSync(root, linkedRoot);
        const result = await backend.startSession({
            chatSessionId: 'chat-4', cwd: linkedRoot, roots: [linkedRoot],
            agent: { name: 'Fake', command: process.execPath, args: [FAKE_AGENT], env: { FAKE_AGENT_LOG: path.join(path.dirname(root), 'agent.jsonl') } }
        });
        expect(result.ok).to.equal(true);
        expect(await backend.prompt('chat-4', [{ type: 'text', text: `read ${path.join(linkedRoot, 'file.txt')}` }])).to.deep.include({ ok: true });
        expect(reads).to.deep.equal([path.join(linkedRoot, 'file.txt')]);
    });
});
