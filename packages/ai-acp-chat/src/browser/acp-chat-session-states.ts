import type * as acp from '@agentclientprotocol/sdk';
import { injectable } from '@theia/core/shared/inversify';
import { Emitter, Event } from '@theia/core/lib/common/event';
import type { AcpSessionInfo } from '../common/acp-chat-protocol';
import { SessionUsage, usageOf } from './session-bar/session-usage';

/** What the window knows of one chat's agent session between turns too: its settings, title, usage and commands. */
export interface AcpChatSessionState {
    /** The agent whose session this is (the chat may talk to another one later). */
    readonly agentName?: string;
    readonly configOptions: readonly acp.SessionConfigOption[];
    readonly currentModeId?: string;
    readonly title?: string;
    readonly usage?: SessionUsage;
    readonly commands: readonly acp.AvailableCommand[];
}

const EMPTY: AcpChatSessionState = { configOptions: [], commands: [] };

/**
 * Each chat's session state, kept from every update the agent sends, not only those of a running turn: codex-acp and
 * Claude's adapter announce settings, titles and commands between turns. Keyed by chat id in a Map (ids come from outside).
 */
@injectable()
export class AcpChatSessionStates {
    protected readonly states = new Map<string, AcpChatSessionState>();
    protected readonly onDidChangeEmitter = new Emitter<string>();
    /** Fires with the chat id whose state changed. */
    readonly onDidChange: Event<string> = this.onDidChangeEmitter.event;
    protected readonly onAgentChangedOptionsEmitter = new Emitter<string>();
    /** Fires with the chat id whose agent changed its settings itself (config_option_update). */
    readonly onAgentChangedOptions: Event<string> = this.onAgentChangedOptionsEmitter.event;
    protected readonly onDidChangeCommandsEmitter = new Emitter<string>();
    /** Fires with the chat id whose agent sent its commands (available_commands_update), or whose session started with them. */
    readonly onDidChangeCommands: Event<string> = this.onDidChangeCommandsEmitter.event;

    of(chatSessionId: string): AcpChatSessionState {
        return this.states.get(chatSessionId) ?? EMPTY;
    }

    /** Every chat whose session state is known, with it. */
    all(): [chatSessionId: string, state: AcpChatSessionState][] {
        return [...this.states];
    }

    /** A session of `agentName` (re)started: its settings are what the backend says of it now; usage and commands come with its updates. */
    adopt(info: AcpSessionInfo, agentName: string): void {
        const earlier = this.of(info.chatSessionId);
        // Commands and usage an agent announced while its session started (codex-acp does) are its own: kept.
        const own = earlier.agentName === agentName || earlier.agentName === undefined;
        const modeId = info.modes?.currentModeId;
        this.set(info.chatSessionId, {
            agentName, configOptions: info.configOptions ?? [], commands: own ? earlier.commands : [],
            ...(own && earlier.usage ? { usage: earlier.usage } : {}), ...(modeId ? { currentModeId: modeId } : {})
        });
        if (own && earlier.commands.length) {
            // Announced while the session started (before it was known whose): offered now.
            this.onDidChangeCommandsEmitter.fire(info.chatSessionId);
        }
    }

    /** The agent answered a change of its settings with the whole new list. */
    replaceOptions(chatSessionId: string, configOptions: readonly acp.SessionConfigOption[]): void {
        this.set(chatSessionId, { ...this.of(chatSessionId), configOptions });
    }

    /** Takes in what an update says of the session; every list the agent sends replaces the one before. */
    apply(chatSessionId: string, update: acp.SessionUpdate): void {
        const state = this.of(chatSessionId);
        switch (update.sessionUpdate) {
            case 'config_option_update':
                this.set(chatSessionId, { ...state, configOptions: update.configOptions });
                return this.onAgentChangedOptionsEmitter.fire(chatSessionId);
            case 'current_mode_update':
                return this.set(chatSessionId, { ...state, currentModeId: update.currentModeId });
            case 'session_info_update':
                return update.title === undefined ? undefined : this.set(chatSessionId, { ...state, title: update.title ?? undefined });
            case 'usage_update':
                return this.set(chatSessionId, { ...state, usage: usageOf(update) ?? state.usage });
            case 'available_commands_update':
                this.set(chatSessionId, { ...state, commands: update.availableCommands });
                return this.onDidChangeCommandsEmitter.fire(chatSessionId);
        }
    }

    /** The chat is gone: nothing of it is kept. */
    forget(chatSessionId: string): void {
        if (this.states.delete(chatSessionId)) {
            this.onDidChangeEmitter.fire(chatSessionId);
        }
    }

    protected set(chatSessionId: string, state: AcpChatSessionState): void {
        this.states.set(chatSessionId, state);
        this.onDidChangeEmitter.fire(chatSessionId);
    }
}
