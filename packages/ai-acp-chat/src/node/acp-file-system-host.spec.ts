import { expect } from 'chai';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type * as acp from '@agentclientprotocol/sdk';
import { Container } from '@theia/core/shared/inversify';
import { ILogger } from '@theia/core/lib/common/logger';
import { AcpFileSystemHost, AcpFileWindow } from './acp-file-system-host';

/**
 * The file-system host on its own, on a real folder: an agent's fs/read_text_file and fs/write_text_file
 * (and the window's review reads and writes) land inside the chat's workspace folders only, and the window
 * is not even asked about a path outside them.
 */
describe('AcpFileSystemHost', () => {
    let base: string;
    let root: string;
    let outside: string;
    let secret: string;
    let host: AcpFileSystemHost;
    let roots: string[];
    /** What the window was asked or told, in order. */
    let asked: string[];
    let logged: string[];
    /** What the window's open editors hold; an outside file's too, to show that the host never asks for it. */
    let editors: Map<string, string>;
    let edited: string | undefined;
    let window: AcpFileWindow;

    beforeEach(() => {
        base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-fs-host-spec-')));
        root = path.join(base, 'workspace');
        outside = path.join(base, 'outside');
        fs.mkdirSync(root);
        fs.mkdirSync(outside);
        secret = path.join(outside, 'secret.txt');
        fs.writeFileSync(secret, 'the secret\n');
        fs.symlinkSync(outside, path.join(root, 'escape'));
        roots = [root];
        asked = [];
        logged = [];
        editors = new Map([[secret, 'the secret, unsaved\n']]);
        edited = undefined;
        window = {
            openEditorText: async (chat, filePath) => {
                asked.push(`${chat} open ${filePath}`);
                return editors.get(filePath);
            },
            editedContentFor: async (chat, request) => {
                asked.push(`${chat} edits ${request.path}`);
                return edited;
            },
            didWriteTextFile: async (chat, filePath) => {
                asked.push(`${chat} wrote ${filePath}`);
            }
        };
        const log = async (message: unknown) => { logged.push(String(message)); };
        const logger = { debug: log, info: log, warn: log, error: log, log, isDebug: async () => false, child: () => logger } as unknown as ILogger;
        const container = new Container();
        container.bind(ILogger).toConstantValue(logger);
        container.bind(AcpFileSystemHost).toSelf().inSingletonScope();
        host = container.get(AcpFileSystemHost);
    });

    afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

    const read = (filePath: string, line?: number, limit?: number) => host.readTextFile('chat-1', { sessionId: 's', path: filePath, line, limit }, roots, window);
    const write = (filePath: string, content: string) => host.writeTextFile('chat-1', { sessionId: 's', path: filePath, content } as acp.WriteTextFileRequest, roots, window);
    const outsidePaths = () => [secret, path.join(root, 'escape', 'secret.txt'), `${root}/../outside/secret.txt`];

    it('reads inside the workspace folders: the open editor\'s text, else the disk (a missing file as empty), line ranges as asked', async () => {
        const file = path.join(root, 'lines.txt');
        fs.writeFileSync(file, 'one\ntwo\nthree\n');
        expect(await read(file)).to.deep.equal({ content: 'one\ntwo\nthree\n' });
        expect(await read(file, 2, 1)).to.deep.equal({ content: 'two' });
        expect(await read(path.join(root, 'missing.txt'))).to.deep.equal({ content: '' });
        editors.set(file, 'one\nedited, not saved\n');
        expect(await read(file, 2, 1)).to.deep.equal({ content: 'edited, not saved' });
        expect(asked).to.deep.equal([`chat-1 open ${file}`, `chat-1 open ${file}`, `chat-1 open ${path.join(root, 'missing.txt')}`, `chat-1 open ${file}`]);
    });

    it('refuses a read outside the workspace folders (directly, through a link, through ..) before asking the window, and logs it', async () => {
        for (const target of outsidePaths()) {
            await read(target).then(
                response => expect.fail(`read ${target}: ${JSON.stringify(response)}`),
                error => expect(String(error)).to.contain(`${target} is outside the workspace folders (${root})`));
        }
        await read('escape/secret.txt').then(response => expect.fail(`a relative path: ${JSON.stringify(response)}`),
            error => expect(String(error)).to.contain('The path must be absolute: escape/secret.txt'));
        roots = [];
        await read(path.join(root, 'any.txt')).then(response => expect.fail(`no roots: ${JSON.stringify(response)}`),
            error => expect(String(error)).to.contain('is outside the workspace folders (none)'));
        expect(asked, 'the window was asked').to.deep.equal([]);
        expect(logged.filter(line => line.includes('Chat chat-1: refused the agent access to'))).to.have.length(4);
    });

    it('writes inside the workspace folders itself, the user\'s edit when there is one, and tells the window', async () => {
        const target = path.join(root, 'new.txt');
        await write(target, 'hello\n');
        expect(fs.readFileSync(target, 'utf8')).to.equal('hello\n');
        edited = 'hello, as the user edited it\n';
        await write(target, 'again\n');
        expect(fs.readFileSync(target, 'utf8')).to.equal('hello, as the user edited it\n');
        expect(asked).to.deep.equal([`chat-1 edits ${target}`, `chat-1 wrote ${target}`, `chat-1 edits ${target}`, `chat-1 wrote ${target}`]);
        expect(logged).to.include(`Chat chat-1: the agent wrote ${target} (with the user's edits)`);
    });

    it('refuses a write outside the workspace folders (directly, through a link, a dangling one too), changing and creating nothing there', async () => {
        fs.symlinkSync(path.join(outside, 'authorized_keys'), path.join(root, 'dangling'));
        for (const target of [...outsidePaths(), path.join(root, 'dangling')]) {
            await write(target, 'overwritten\n').then(() => expect.fail(`wrote ${target}`), error => expect(String(error)).to.contain('is outside the workspace folders'));
        }
        expect(fs.readFileSync(secret, 'utf8')).to.equal('the secret\n');
        expect(fs.existsSync(path.join(outside, 'authorized_keys')), 'created outside').to.equal(false);
        expect(asked, 'the window was asked or told').to.deep.equal([]);
    });

    it('a link made between the check and the write does not redirect it', async () => {
        const target = path.join(root, 'notes.md');
        window.editedContentFor = async () => {
            fs.symlinkSync(secret, target);
            return undefined;
        };
        await write(target, 'overwritten\n').then(() => expect.fail('written'), error => expect(String(error)).to.contain(`${target} is outside the workspace folders`));
        expect(fs.readFileSync(secret, 'utf8')).to.equal('the secret\n');
        expect(logged.some(line => line.includes('Chat chat-1: refused the agent\'s write'))).to.equal(true, logged.join('\n'));
    });

    it('reviews and replaces a file only inside the workspace folders, and only over exactly the agent\'s proposal', async () => {
        const target = path.join(root, 'self-written.txt');
        fs.writeFileSync(target, 'proposal\n');
        expect(await host.readForReview('chat-1', target, roots)).to.equal('proposal\n');
        expect(await host.replaceWritten('chat-1', target, 'something else\n', 'reviewed\n', roots, window)).to.equal(false);
        expect(await host.replaceWritten('chat-1', target, 'proposal\n', 'reviewed\n', roots, window)).to.equal(true);
        expect(fs.readFileSync(target, 'utf8')).to.equal('reviewed\n');
        for (const target of outsidePaths()) {
            await host.readForReview('chat-1', target, roots).then(text => expect.fail(`read ${target}: ${text}`), error => expect(String(error)).to.contain('outside'));
            await host.replaceWritten('chat-1', target, 'the secret\n', 'overwritten\n', roots, window).then(() => expect.fail(`replaced ${target}`),
                error => expect(String(error)).to.contain('outside'));
            expect(await host.landingInWorkspace(target, roots)).to.equal(undefined);
        }
        expect(fs.readFileSync(secret, 'utf8')).to.equal('the secret\n');
        expect(asked).to.deep.equal([`chat-1 wrote ${target}`]);
    });
});
