import * as path from 'path';
import type * as acp from '@agentclientprotocol/sdk';
import { inject, injectable, named } from '@theia/core/shared/inversify';
import { ILogger } from '@theia/core/lib/common/logger';
import { checkInsideRoots, describeRefusal, OutsideRootsError, readFileWithinRoots, writeFileWithinRoots } from '@theia-cli-companion/safe-files/lib/node';
import { sliceLines } from '../common/slice-lines';
import type { AcpChatClient } from '../common/acp-chat-protocol';

/** The most an agent reads of one file at once: a bound on what a repository's file can make the IDE hold. */
const MAX_READ_BYTES = 16 * 1024 * 1024;

/** What the file-system host asks of the window: its open editors' text, the user's edit of a proposal, and a word after a write. */
export type AcpFileWindow = Pick<AcpChatClient, 'openEditorText' | 'editedContentFor' | 'didWriteTextFile'>;

/**
 * An agent's `fs/read_text_file` and `fs/write_text_file`, and the window's reads and writes for a
 * review, each checked against the chat's workspace folders (`roots`, symlinks resolved): a path
 * must be absolute and land inside them, links pointing out count as outside. Reads are answered
 * from the window's open editor, else the disk; writes are done here (see {@link write}). Every
 * call names the chat (`owner`) it is made for, as the terminal host's do.
 */
@injectable()
export class AcpFileSystemHost {

    @inject(ILogger) @named('ai-acp-chat:AcpChatBackend') protected readonly logger: ILogger;

    /** The agent's `fs/read_text_file`: the lines it asks for. */
    async readTextFile(owner: string, params: acp.ReadTextFileRequest, roots: readonly string[], window: AcpFileWindow): Promise<acp.ReadTextFileResponse> {
        await this.checkPath(owner, params.path, roots);
        return { content: sliceLines(await this.read(owner, params.path, roots, window), params.line ?? undefined, params.limit ?? undefined) };
    }

    /** The agent's `fs/write_text_file`: its content, or the user's edit of it when the user edited the proposal. */
    async writeTextFile(owner: string, params: acp.WriteTextFileRequest, roots: readonly string[], window: AcpFileWindow): Promise<void> {
        await this.checkPath(owner, params.path, roots);
        const edited = await window.editedContentFor(owner, params);
        await this.write(owner, params.path, edited ?? params.content, roots);
        await window.didWriteTextFile(owner, params.path);
        this.logger.info(`Chat ${owner}: the agent wrote ${params.path}${edited !== undefined ? ' (with the user\'s edits)' : ''}`);
    }

    /** The disk's text of a file inside the roots, for a review; undefined when it does not exist. */
    async readForReview(owner: string, filePath: string, roots: readonly string[]): Promise<string | undefined> {
        await this.checkPath(owner, filePath, roots);
        const bytes = await readFileWithinRoots(filePath, roots, MAX_READ_BYTES);
        return bytes && new TextDecoder('utf-8').decode(bytes);
    }

    /** Where a path really lands (links resolved) when that is inside the roots; else undefined. */
    async landingInWorkspace(filePath: string, roots: readonly string[]): Promise<string | undefined> {
        const verdict = await checkInsideRoots(filePath, roots);
        return verdict.inside ? verdict.realPath : undefined;
    }

    /** Puts the user's reviewed text over an agent's own write, only when the file holds exactly what it proposed. */
    async replaceWritten(owner: string, filePath: string, expected: string, reviewed: string, roots: readonly string[], window: AcpFileWindow): Promise<boolean> {
        if (await this.readForReview(owner, filePath, roots) !== expected) {
            return false;
        }
        await this.write(owner, filePath, reviewed, roots);
        await window.didWriteTextFile(owner, filePath);
        this.logger.info(`Chat ${owner}: replaced the agent's write of ${filePath} with the user's reviewed text`);
        return true;
    }

    /** The agent may touch the workspace folders only; symlinks pointing out count as outside. */
    async checkPath(owner: string, filePath: string, roots: readonly string[]): Promise<void> {
        if (!path.isAbsolute(filePath)) {
            throw new Error(`The path must be absolute: ${filePath}`);
        }
        const refusal = describeRefusal(filePath, await checkInsideRoots(filePath, roots), roots);
        if (refusal) {
            this.logger.warn(`Chat ${owner}: refused the agent access to ${filePath}: it ${refusal}`);
            throw new Error(`${filePath} ${refusal}; access refused`);
        }
    }

    /**
     * The open editor's text, else the disk's, read here so a link planted after the check cannot
     * redirect it (see readFileWithinRoots). A missing file reads as empty: Gemini CLI cannot create a
     * file if its read fails.
     */
    protected async read(owner: string, filePath: string, roots: readonly string[], window: AcpFileWindow): Promise<string> {
        const open = await window.openEditorText(owner, filePath);
        if (open !== undefined) {
            return open;
        }
        try {
            const bytes = await readFileWithinRoots(filePath, roots, MAX_READ_BYTES);
            return bytes ? new TextDecoder('utf-8').decode(bytes) : '';
        } catch (error) {
            if (error instanceof OutsideRootsError) {
                this.logger.warn(`Chat ${owner}: refused the agent's read: ${error.message}`);
            }
            throw error;
        }
    }

    /**
     * Writes here, not in the window: Theia's FileService follows symbolic links, so a link made in the
     * workspace between the check and the window's write would redirect it. writeFileWithinRoots
     * judges the path again as it writes (dangling links followed) and never writes through a link;
     * the window then reloads its open editor of the file.
     */
    protected async write(owner: string, filePath: string, content: string, roots: readonly string[]): Promise<void> {
        try {
            await writeFileWithinRoots(filePath, content, roots);
        } catch (error) {
            if (error instanceof OutsideRootsError) {
                this.logger.warn(`Chat ${owner}: refused the agent's write: ${error.message}`);
            }
            throw error;
        }
    }
}
