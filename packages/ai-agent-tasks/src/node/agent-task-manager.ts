import * as crypto from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import { inject, injectable, named } from '@theia/core/shared/inversify';
import { Emitter } from '@theia/core/lib/common/event';
import { ILogger } from '@theia/core/lib/common/logger';
import { Disposable } from '@theia/core/lib/common/disposable';
import { FileUri } from '@theia/core/lib/common/file-uri';
import { EnvVariablesServer } from '@theia/core/lib/common/env-variables';
import { BackendApplicationContribution } from '@theia/core/lib/node/backend-application';
import { headlessTaskArgs, StreamJsonLine, applyStreamJsonLine, emptyTranscript } from '@theia-cli-companion/gemini-headless-protocol/lib/common';
import { HeadlessGeminiProcess } from '@theia-cli-companion/gemini-headless-protocol/lib/node';
import { AgentTaskDetail, AgentTaskRequest, AgentTaskSummary, FileChange, RevertResult } from '../common/agent-task-protocol';
import { findAbsoluteExecutable } from '@theia-cli-companion/cli-process/lib/node';
import { CLI_CATALOGUE, describeError, installCommandOf, isPathWithin } from '@theia-cli-companion/cli-process/lib/common';
import { AgentTaskStore } from './agent-task-store';
import {
    AgentWorkRegistry, BlobStore, diskUsage, StorageUsageContribution, StoreGuard, WorkspaceSnapshot, WorkspaceSnapshotter, restoreSnapshotFile
} from '@theia-cli-companion/ai-cli-core/lib/node';
import type { StorageUsage } from '@theia-cli-companion/ai-cli-core/lib/common';

export const AGENT_TASKS_LOGGER = 'ai-agent-tasks:AgentTaskManager';

interface LiveTask {
    detail: AgentTaskDetail;
    /** The task's folder with symlinks resolved: what a window's workspace roots are compared with. */
    folder: string;
    process?: HeadlessGeminiProcess;
    cancelRequested?: boolean;
    before?: WorkspaceSnapshot;
    /** Ignored files its snapshots record anyway. */
    snapshotInclude?: readonly string[];
    /** Registered as agent work from its start to its end: the workspace is kept awake meanwhile. */
    working?: Disposable;
}

/**
 * Every agent task of this backend: runs `gemini -p … --output-format stream-json`, keeps the
 * transcript, snapshots the folder before and after, stores the result. One per backend (not per
 * window), so a task goes on when the browser reloads and is listed again afterwards.
 */
@injectable()
export class AgentTaskManager implements BackendApplicationContribution, StorageUsageContribution {
    @inject(ILogger) @named(AGENT_TASKS_LOGGER) protected readonly logger: ILogger;
    @inject(EnvVariablesServer) protected readonly envVariables: EnvVariablesServer;
    @inject(AgentWorkRegistry) protected readonly agentWork: AgentWorkRegistry;

    protected readonly tasks = new Map<string, LiveTask>();
    protected storage?: Promise<{ store: AgentTaskStore; blobs: BlobStore; snapshots: WorkspaceSnapshotter }>;
    /** A collection (after a task is removed) runs alone; snapshots and comparisons beside each other. */
    protected readonly guard = new StoreGuard();

    protected readonly onLineEmitter = new Emitter<{ id: string; seq: number; line: StreamJsonLine }>();
    readonly onLine = this.onLineEmitter.event;
    protected readonly onChangedEmitter = new Emitter<AgentTaskSummary>();
    readonly onChanged = this.onChangedEmitter.event;
    protected readonly onRemovedEmitter = new Emitter<{ id: string; folder: string }>();
    readonly onRemoved = this.onRemovedEmitter.event;

    /** Where tasks and contents are kept: `<THEIA_CONFIG_DIR>/cli-companion/agent-tasks`. */
    protected async open(): Promise<{ store: AgentTaskStore; blobs: BlobStore; snapshots: WorkspaceSnapshotter }> {
        return this.storage ??= (async () => {
            const root = path.join(FileUri.fsPath(await this.envVariables.getConfigDirUri()), 'cli-companion', 'agent-tasks');
            const store = new AgentTaskStore(path.join(root, 'tasks'), message => this.logger.warn(message));
            for (const detail of await store.loadAll()) {
                if (detail.state === 'running' || detail.state === 'preparing') {
                    Object.assign(detail, {
                        state: 'crashed',
                        outcomeMessage: 'The IDE\'s backend stopped while this task ran.',
                        changes: { state: 'unavailable', reason: 'the task did not finish' }
                    });
                    await store.save(detail);
                }
                this.tasks.set(detail.id, { detail, folder: await realFolder(detail.request.cwd) });
            }
            const blobs = new BlobStore(path.join(root, 'blobs'));
            return { store, blobs, snapshots: new WorkspaceSnapshotter({ gitDir: path.join(root, 'git'), blobs, warn: message => this.logger.warn(message) }) };
        })();
    }

    /** The tasks whose folder lies in one of `roots` (realpaths), newest first. */
    async list(roots: string[]): Promise<AgentTaskSummary[]> {
        await this.open();
        const inside = (folder: string) => roots.some(root => isPathWithin(folder, root, path.sep));
        return [...this.tasks.values()].filter(task => inside(task.folder)).map(task => summaryOf(task.detail)).sort((a, b) => b.startedAt - a.startedAt);
    }

    /** The folder of a task this manager has (every task an event is about), symlinks resolved. */
    folderOf(id: string): string | undefined {
        return this.tasks.get(id)?.folder;
    }

    async get(id: string): Promise<AgentTaskDetail | undefined> {
        await this.open();
        return this.tasks.get(id)?.detail;
    }

    async start(request: AgentTaskRequest, command: string, snapshotInclude: readonly string[] = []): Promise<AgentTaskSummary> {
        const { store, snapshots } = await this.open();
        const stat = await fs.promises.stat(request.cwd).catch(() => undefined);
        if (!stat?.isDirectory()) {
            throw new Error(`The task's folder does not exist: ${request.cwd}`);
        }
        const detail: AgentTaskDetail = {
            id: crypto.randomUUID(), request, startedAt: Date.now(), state: 'preparing', changes: { state: 'pending' }, transcript: emptyTranscript()
        };
        const task: LiveTask = { detail, folder: await realFolder(request.cwd), snapshotInclude };
        // Named by its folder, not its prompt: the name goes to the platform's activity log too.
        task.working = this.agentWork.begin(`an agent task in ${path.basename(task.folder)}`);
        this.tasks.set(detail.id, task);
        await store.save(detail);
        this.changed(task);
        void this.run(task, command, store, snapshots);
        return summaryOf(detail);
    }

    protected async run(task: LiveTask, command: string, store: AgentTaskStore, snapshots: WorkspaceSnapshotter): Promise<void> {
        const { detail } = task;
        // Resolved once to an absolute path, relative PATH entries ignored: the CLI runs in the task's folder,
        // where a `.` in PATH would find the repository's own `gemini`.
        const executable = await findAbsoluteExecutable(command, process.env.PATH);
        if (!executable) {
            return this.finish(task, store, {
                state: 'not-installed',
                outcomeMessage: `${CLI_CATALOGUE.gemini.displayName} was not found: "${command}" is not on the PATH of the IDE's backend `
                    + '(relative PATH entries such as "." are not searched, and a command with a "/" must be an absolute path). '
                    + `Install it with \`${installCommandOf(CLI_CATALOGUE.gemini)}\`, or set aiCliCompanion.tasks.command.`,
                changes: { state: 'unavailable', reason: 'the task did not run' }
            });
        }
        try {
            task.before = await this.guard.shared(() => snapshots.take(detail.request.cwd, task.snapshotInclude));
        } catch (error) {
            this.logger.warn(`Agent task ${detail.id}: no snapshot of ${detail.request.cwd}: ${error}`);
        }
        if (task.cancelRequested) {
            return this.finish(task, store, {
                state: 'cancelled',
                outcomeMessage: 'Cancelled before it started.',
                changes: { state: 'unavailable', reason: 'the task did not run' }
            });
        }
        let seq = 0;
        const args = headlessTaskArgs(detail.request);
        this.logger.info(`Agent task ${detail.id}: ${executable} ${args.slice(1).join(' ')} in ${detail.request.cwd}`);
        task.process = new HeadlessGeminiProcess({ command: executable, args, cwd: detail.request.cwd, env: { ...process.env } }, {
            line: line => {
                applyStreamJsonLine(detail.transcript, line);
                this.onLineEmitter.fire({ id: detail.id, seq: seq++, line });
            },
            stderr: line => line.trim() && this.logger.info(`Agent task ${detail.id} stderr: ${line}`),
            retry: notice => {
                detail.retry = { ...notice, at: Date.now() };
                this.changed(task);
            },
            exit: (outcome, facts) => {
                this.logger.info(`Agent task ${detail.id} ended: ${outcome.kind} (code ${facts.code}, signal ${facts.signal})`);
                // The contents compared are stored with the task before a collection may run.
                void this.guard.shared(() => this.compare(task, snapshots).then(changes => this.finish(task, store, {
                    state: outcome.kind, outcomeMessage: outcome.message || undefined, exit: { code: facts.code, signal: facts.signal }, changes
                })));
            }
        });
        Object.assign(detail, { state: 'running', executable, pid: task.process.pid });
        this.changed(task);
    }

    protected async compare(task: LiveTask, snapshots: WorkspaceSnapshotter): Promise<AgentTaskSummary['changes']> {
        if (!task.before) {
            return { state: 'unavailable', reason: 'the folder could not be read before the task started' };
        }
        try {
            const after = await snapshots.take(task.before.root, task.snapshotInclude);
            return { state: 'ready', files: await snapshots.compare(task.before, after), truncated: task.before.truncated || after.truncated };
        } catch (error) {
            return { state: 'unavailable', reason: `the folder could not be read after the task: ${error}` };
        }
    }

    protected async finish(task: LiveTask, store: AgentTaskStore, end: Partial<AgentTaskDetail>): Promise<void> {
        task.working?.dispose();
        task.working = undefined;
        Object.assign(task.detail, end, { endedAt: Date.now(), retry: undefined });
        task.process = undefined;
        await store.save(task.detail).catch(error => this.logger.error(`Agent task ${task.detail.id} could not be stored: ${error}`));
        this.changed(task);
    }

    async cancel(id: string): Promise<void> {
        const task = this.tasks.get(id);
        if (!task || (task.detail.state !== 'running' && task.detail.state !== 'preparing')) {
            return;
        }
        task.cancelRequested = true;
        task.process?.cancel();
    }

    async remove(id: string): Promise<void> {
        const { store, blobs, snapshots } = await this.open();
        const task = this.tasks.get(id);
        if (!task) {
            return;
        }
        if (task.detail.state === 'running' || task.detail.state === 'preparing') {
            throw new Error('Cancel the task before removing it.');
        }
        this.tasks.delete(id);
        await store.remove(id);
        this.onRemovedEmitter.fire({ id, folder: task.folder });
        await this.collect(blobs, snapshots);
    }

    /**
     * Removes the contents no task refers to any more: blobs no stored change or kept snapshot names, and the
     * objects of the private git directories beyond what running tasks and each folder's last snapshot need.
     */
    protected collect(blobs: BlobStore, snapshots: WorkspaceSnapshotter): Promise<void> {
        return this.guard.exclusive(async () => {
            await blobs.collectGarbage(this.referencedBlobs(await snapshots.keptBlobs()));
            // A finished task's changes are in the blobs: only running tasks still compare from their first snapshot.
            const running = [...this.tasks.values()].filter(task => task.detail.state === 'running' || task.detail.state === 'preparing');
            await snapshots.prune(running.map(task => task.before));
        });
    }

    /** The space the tasks' store takes, for the status view. */
    async storageUsage(): Promise<StorageUsage> {
        await this.open();
        const root = path.join(FileUri.fsPath(await this.envVariables.getConfigDirUri()), 'cli-companion', 'agent-tasks');
        const [blobs, git, records] = await Promise.all(['blobs', 'git', 'tasks'].map(part => diskUsage(path.join(root, part))));
        return {
            id: 'agent-tasks', label: 'Agent tasks', path: root, bytes: blobs + git + records,
            parts: [{ name: 'blobs', bytes: blobs }, { name: 'records', bytes: records }, { name: 'git', bytes: git }]
        };
    }

    /** Blobs still needed: every stored change, and every file of the snapshots kept for reuse or running tasks. */
    protected referencedBlobs(keep: Set<string>): Set<string> {
        const add = (sha?: string) => sha && keep.add(sha);
        for (const task of this.tasks.values()) {
            const changes = task.detail.changes;
            if (changes.state === 'ready') {
                changes.files.forEach(change => { add(change.before); add(change.after); });
            }
            if (task.before?.kind === 'files') {
                task.before.files.forEach(entry => add(entry.sha));
            }
        }
        return keep;
    }

    async baseline(id: string, file: string): Promise<string | undefined> {
        const { blobs } = await this.open();
        const change = this.changeOf(id, file);
        if (!change) {
            return undefined;
        }
        if (change.kind === 'added') {
            return '';
        }
        return change.before ? (await blobs.get(change.before))?.toString('utf8') : undefined;
    }

    async revert(id: string, file: string, force: boolean): Promise<RevertResult> {
        const { store, blobs } = await this.open();
        const task = this.tasks.get(id);
        const change = this.changeOf(id, file);
        if (!task || !change) {
            return { kind: 'not-reviewable', reason: 'the task did not change this file' };
        }
        if (change.unreadable) {
            return { kind: 'not-reviewable', reason: `it could not be read (${change.unreadable}); not restorable` };
        }
        if (!change.reviewable) {
            return { kind: 'not-reviewable', reason: 'the file was larger than the snapshot limit, so its earlier content was not kept' };
        }
        let folder: string;
        try {
            folder = await fs.promises.realpath(task.detail.request.cwd);
        } catch (error) {
            return { kind: 'not-reviewable', reason: `the task's folder cannot be read (${describeError(error)})` };
        }
        const result = await restoreSnapshotFile({
            file: change.path, target: change.kind === 'added' ? undefined : { sha: change.before!, mode: change.mode }, expected: change.after, force
        }, blobs, [folder], 'the task\'s folder');
        if (result.kind === 'not-restorable') {
            return { kind: 'not-reviewable', reason: result.reason };
        }
        if (result.kind === 'changed-since') {
            return result;
        }
        change.revertedAt = Date.now();
        await store.save(task.detail);
        this.changed(task);
        return { kind: 'reverted' };
    }

    async keep(id: string, file: string): Promise<boolean> {
        const { store } = await this.open();
        const task = this.tasks.get(id);
        const change = this.changeOf(id, file);
        if (!task || !change || change.revertedAt !== undefined) {
            return false;
        }
        change.keptAt ??= Date.now();
        await store.save(task.detail);
        this.changed(task);
        return true;
    }

    protected changeOf(id: string, file: string): FileChange | undefined {
        const changes = this.tasks.get(id)?.detail.changes;
        return changes?.state === 'ready' ? changes.files.find(change => change.path === file) : undefined;
    }

    protected changed(task: LiveTask): void {
        this.onChangedEmitter.fire(summaryOf(task.detail));
    }

    /** The backend is going away: every running task's process group ends with it. */
    onStop(): void {
        for (const task of this.tasks.values()) {
            task.cancelRequested = true;
            task.process?.cancel();
        }
    }
}

/** A folder that no longer exists (a stored task's) is compared as it was given. */
function realFolder(folder: string): Promise<string> {
    return fs.promises.realpath(folder).catch(() => path.resolve(folder));
}

function summaryOf(detail: AgentTaskDetail): AgentTaskSummary {
    const { transcript: _transcript, ...summary } = detail;
    return summary;
}
