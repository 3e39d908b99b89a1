import { randomUUID } from 'crypto';
import { inject, injectable, interfaces, named } from '@theia/core/shared/inversify';
import { ContributionProvider } from '@theia/core/lib/common/contribution-provider';
import { ILogger } from '@theia/core/lib/common/logger';
import { BackendApplicationContribution } from '@theia/core/lib/node/backend-application';
import { CliFlavour, removeStaleDiscoveryFiles } from '@theia-cli-companion/ai-cli-ide-protocol/lib/node';
import { CliFlavourId } from '@theia-cli-companion/ai-cli-ide-protocol/lib/common';
import { stdioBridgeCommand, WindowServer } from '@theia-cli-companion/ide-companion-server/lib/node';
import { WindowModuleContribution } from './window-module-contribution';
import { describeError } from '@theia-cli-companion/cli-process/lib/common';

interface WindowEntry {
    readonly companion: WindowServer;
    /** The frontend connection that currently owns the window; undefined while it is away. */
    owner?: object;
    closeTimer?: NodeJS.Timeout;
}

/** Window ids come from the browser: accept only what we generate. */
const WINDOW_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * All window servers of this backend. A window keeps its server (port, token, sessions) for a short
 * grace period after its frontend connection drops, so a reloaded browser tab gets the same server
 * back and the CLIs in its terminals never notice. After the grace period the server stops and its
 * discovery files go.
 */
@injectable()
export class WindowServerRegistry implements BackendApplicationContribution {

    @inject(ILogger) @named('ai-cli-core:WindowServerRegistry')
    protected readonly logger: ILogger;

    @inject(ContributionProvider) @named(WindowModuleContribution)
    protected readonly contributions: ContributionProvider<WindowModuleContribution>;

    protected readonly windows = new Map<string, WindowEntry>();
    protected windowModules?: Promise<interfaces.ContainerModule[]>;
    protected staleFilesRemoved?: Promise<void>;
    protected stopping = false;

    /** How long a window's server outlives its frontend connection. */
    reattachGraceMs = 10_000;

    /** Every flavour the installed extensions contribute, the first of each id. */
    get flavours(): readonly CliFlavour[] {
        const flavours = new Map<string, CliFlavour>();
        for (const flavour of this.contributions.getContributions().flatMap(contribution => contribution.flavours ?? [])) {
            if (!flavours.has(flavour.id)) {
                flavours.set(flavour.id, flavour);
            }
        }
        return [...flavours.values()];
    }

    initialize(): void {
        this.staleFilesRemoved = this.removeStaleFiles();
    }

    protected async removeStaleFiles(): Promise<void> {
        for (const flavour of this.flavours) {
            try {
                const { removed, kept } = await removeStaleDiscoveryFiles(flavour);
                removed.forEach(({ file, reason }) => this.logger.info(`Removed stale ${flavour.displayName} discovery file ${file}: ${reason}`));
                kept.forEach(({ file, reason }) => this.logger.debug(`Kept ${flavour.displayName} discovery file ${file}: ${reason}`));
            } catch (error) {
                this.logger.warn(`Could not scan ${flavour.displayName} discovery files: ${describeError(error)}`);
            }
        }
    }

    /**
     * Gives `owner` the window it had before a reload (same id, not owned by another live connection),
     * or a new one. Resolves when the server listens and its discovery files are on disk.
     */
    async attach(owner: object, rootPaths: readonly string[], flavours: readonly CliFlavourId[], requestedId?: string, reclaim = false): Promise<WindowServer> {
        await (this.staleFilesRemoved ??= this.removeStaleFiles());
        if (this.stopping) {
            throw new Error('The backend is shutting down');
        }
        const existing = requestedId && WINDOW_ID.test(requestedId) ? this.windows.get(requestedId) : undefined;
        if (existing && (existing.owner === undefined || existing.owner === owner || reclaim)) {
            clearTimeout(existing.closeTimer);
            existing.closeTimer = undefined;
            existing.owner = owner;
            await existing.companion.setFlavours(flavours);
            await existing.companion.setRoots(rootPaths);
            this.logger.info(`Window ${existing.companion.windowId} re-attached`);
            return existing.companion;
        }
        // Loaded on the first window, not at backend start: the MCP SDK is a large part of the
        // backend's startup cost (docs/BENCHMARKS.md, "Backend ready").
        const { createWindowServer } = await import('@theia-cli-companion/ide-companion-server/lib/node/window');
        const modules = await (this.windowModules ??= this.loadWindowModules());
        const companion = createWindowServer({
            windowId: randomUUID(),
            flavours: this.flavours,
            logger: this.logger,
            serverPid: process.pid,
            stdioFor: stdioBridgeCommand
        }, undefined, modules);
        const entry: WindowEntry = { companion, owner };
        this.windows.set(companion.windowId, entry);
        try {
            await companion.start(rootPaths, flavours);
        } catch (error) {
            this.windows.delete(companion.windowId);
            await companion.stop().catch(() => undefined);
            throw error;
        }
        return companion;
    }

    protected async loadWindowModules(): Promise<interfaces.ContainerModule[]> {
        const contributions = this.contributions.getContributions().filter(contribution => contribution.loadModule);
        return Promise.all(contributions.map(contribution => contribution.loadModule!()));
    }

    /** The owner's connection closed: keep the window for the grace period, then stop it. */
    detach(owner: object): void {
        for (const [id, entry] of this.windows) {
            if (entry.owner !== owner) {
                continue;
            }
            entry.owner = undefined;
            entry.companion.clearActiveEditor().catch(error => this.logger.warn(`Could not clear the active editor of window ${id}: ${describeError(error)}`));
            clearTimeout(entry.closeTimer);
            entry.closeTimer = setTimeout(() => this.close(id), this.reattachGraceMs);
        }
    }

    /** The owner turned the companion off: its window stops now, without a grace period. */
    async release(owner: object): Promise<void> {
        const owned = [...this.windows].filter(([, entry]) => entry.owner === owner);
        await Promise.all(owned.map(([id, entry]) => {
            entry.owner = undefined;
            clearTimeout(entry.closeTimer);
            return this.close(id);
        }));
    }

    protected async close(windowId: string): Promise<void> {
        const entry = this.windows.get(windowId);
        if (!entry || entry.owner !== undefined) {
            return;
        }
        this.windows.delete(windowId);
        await entry.companion.stop().catch(error => this.logger.warn(`Window ${windowId} did not stop cleanly: ${describeError(error)}`));
    }

    /**
     * Called on SIGINT/SIGTERM (awaited) and again from the process 'exit' handler (not awaited):
     * the discovery files are removed synchronously first, so they are gone in both cases.
     */
    async onStop(): Promise<void> {
        this.stopping = true;
        const entries = [...this.windows.values()];
        this.windows.clear();
        entries.forEach(entry => {
            clearTimeout(entry.closeTimer);
            entry.companion.removeDiscoveryFilesSync();
        });
        await Promise.all(entries.map(entry => entry.companion.stop().catch(() => undefined)));
    }
}
