import { expect } from 'chai';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import type * as acp from '@agentclientprotocol/sdk';
import { Container } from '@theia/core/shared/inversify';
import { ILogger } from '@theia/core/lib/common/logger';
import processBackendModule from '@theia/process/lib/node/process-backend-module';
import { EnvVariablesServer } from '@theia/core/lib/common/env-variables';
import { FileUri } from '@theia/core/lib/common/file-uri';
import { bindContributionProvider } from '@theia/core/lib/common/contribution-provider';
import { AgentWorkRegistry, IdeCompanionBackendImpl, WindowAgentCredentials, WindowServerRegistry, WindowModuleContribution } from '@theia-cli-companion/ai-cli-core/lib/node';
import { GeminiCliFlavour } from '@theia-cli-companion/ai-cli-ide-protocol/lib/node';
import { useTemporaryHome } from '@theia-cli-companion/ai-cli-ide-protocol/lib/node/test';
import { AcpChatClient, AcpQuestion, AcpQuestionAnswer } from '../../common/acp-chat-protocol';
import { AcpChatBackendImpl } from '../acp-chat-backend-impl';
import { AcpAgentLauncher } from '../acp-agent-launcher';
import { AcpFileSystemHost } from '../acp-file-system-host';
import { AcpTerminalHost } from '../acp-terminal-host';
import { AcpTurnCheckpoints } from '../acp-turn-checkpoints';

export const FAKE_AGENT = require.resolve('@theia-cli-companion/acp-client/lib/node/test/fake-acp-agent-main.js');

/**
 * The window's backend service, composed with Theia's real process services, a scripted agent
 * (`FAKE_AGENT`) and a window that records what it was told: a workspace folder and a folder outside
 * it (with `escape`, a link out of the workspace, and `outside/secret.txt`), HOME and TMPDIR temporary.
 * `setUp` before each test, `tearDown` after it; the arrays are the same throughout, emptied by `setUp`.
 */
export class AcpBackendTestbed {
    root!: string;
    outside!: string;
    backend!: AcpChatBackendImpl;
    container!: Container;
    readonly reads: string[] = [];
    readonly written: string[] = [];
    readonly exits: string[] = [];
    /** The scripted agent's log of what it was sent (FAKE_AGENT_LOG). */
    get agentLog(): string {
        return path.join(path.dirname(this.root), 'agent.jsonl');
    }
    /** The agent's questions the window was asked, those closed (`id: why`), and those refused (why). */
    readonly questions: AcpQuestion[] = [];
    readonly closedQuestions: string[] = [];
    readonly refusedQuestions: string[] = [];
    /** How the window answers a permission request (allows once unless a test says otherwise), and the tool calls whose request the agent withdrew. */
    onAskPermission: (request: acp.RequestPermissionRequest) => Promise<acp.RequestPermissionOutcome> = async request => ({
        outcome: 'selected', optionId: request.options.find(o => o.kind === 'allow_once')!.optionId
    });
    readonly withdrawnPermissions: string[] = [];
    /** How the window answers a question; a test sets it. */
    onAskQuestion: (question: AcpQuestion) => Promise<AcpQuestionAnswer> = async () => ({ action: 'decline' });
    readonly unsupported: string[] = [];
    readonly logged: string[] = [];
    readonly messages: string[] = [];
    readonly shown: { terminalId: string; processId: number; title: string }[] = [];
    /** The size of what the window was sent so far (updates and tool calls, as JSON). */
    sentToWindow = 0;
    /** What the window does when asked for the user's edit of a proposal: a test may act here, between the check and the write. */
    onEditedContentFor: (request: acp.WriteTextFileRequest) => string | undefined = () => undefined;
    /** What the window's open editor of a file holds; undefined: no editor has it open. */
    onOpenEditorText: (filePath: string) => string | undefined = () => undefined;
    protected home?: ReturnType<typeof useTemporaryHome>;

    setUp(): void {
        // The window's companion writes discovery files into HOME and TMPDIR: both are temporary here.
        this.home = useTemporaryHome();
        const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'acp-backend-spec-')));
        this.root = path.join(base, 'workspace');
        this.outside = path.join(base, 'outside');
        fs.mkdirSync(this.root);
        fs.mkdirSync(this.outside);
        fs.writeFileSync(path.join(this.outside, 'secret.txt'), 'secret\n');
        // A symlink inside the workspace that points out of it.
        fs.symlinkSync(this.outside, path.join(this.root, 'escape'));
        this.onEditedContentFor = () => undefined;
        this.onOpenEditorText = () => undefined;
        this.reads.length = this.written.length = this.exits.length = this.logged.length = this.messages.length = this.shown.length = 0;
        this.questions.length = this.closedQuestions.length = this.refusedQuestions.length = this.withdrawnPermissions.length = 0;
        this.onAskPermission = async request => ({ outcome: 'selected', optionId: request.options.find(o => o.kind === 'allow_once')!.optionId });
        this.container = this.createContainer(base);
        this.backend = this.container.get(AcpChatBackendImpl);
        this.backend.setClient(this.createClient());
    }

    async tearDown(): Promise<void> {
        this.backend.dispose();
        await this.container.get(IdeCompanionBackendImpl).detachWindow();
        await this.container.get(AcpTurnCheckpoints).settled();
        fs.rmSync(path.dirname(this.root), { recursive: true, force: true });
        this.home?.restore();
    }

    /** Starts `chat-1`'s session of the scripted agent `Fake` (run by `command`), logging its calls to `agent.jsonl` beside the workspace. */
    async start(command = process.execPath): Promise<void> {
        const result = await this.backend.startSession({
            chatSessionId: 'chat-1', cwd: this.root, roots: [this.root],
            agent: { name: 'Fake', command, args: [FAKE_AGENT], env: { FAKE_AGENT_LOG: this.agentLog } }
        });
        expect(result.ok, JSON.stringify(result)).to.equal(true);
    }

    protected createContainer(base: string): Container {
        const log = async (message: unknown) => { this.logged.push(String(message)); };
        const logger = { debug: log, info: log, warn: log, error: log, log, isDebug: async () => false, child: () => logger } as unknown as ILogger;
        const container = new Container();
        container.load(processBackendModule);
        container.bind(ILogger).toConstantValue(logger);
        container.bind(AcpTerminalHost).toSelf().inSingletonScope();
        container.bind(AcpFileSystemHost).toSelf().inSingletonScope();
        container.bind(AcpAgentLauncher).toSelf().inSingletonScope();
        // The core with one CLI flavour contributed (as IDE mode does), so that the agent's secret can be told from the CLI's.
        bindContributionProvider(container.bind.bind(container), WindowModuleContribution);
        container.bind(WindowModuleContribution).toConstantValue({ flavours: [GeminiCliFlavour] });
        container.bind(WindowServerRegistry).toSelf().inSingletonScope();
        container.bind(IdeCompanionBackendImpl).toSelf().inSingletonScope();
        container.bind(WindowAgentCredentials).toService(IdeCompanionBackendImpl);
        container.bind(EnvVariablesServer).toConstantValue({ getConfigDirUri: async () => FileUri.create(path.join(base, 'config')).toString() } as EnvVariablesServer);
        container.bind(AcpTurnCheckpoints).toSelf().inSingletonScope();
        container.bind(AgentWorkRegistry).toSelf().inSingletonScope();
        container.bind(AcpChatBackendImpl).toSelf().inSingletonScope();
        return container;
    }

    protected createClient(): AcpChatClient {
        return {
            onSessionUpdate: (_chat, update, toolCall) => {
                this.sentToWindow += JSON.stringify(update).length + JSON.stringify(toolCall ?? {}).length;
                if (update.sessionUpdate === 'agent_message_chunk' && update.content.type === 'text') {
                    this.messages.push(update.content.text);
                }
            },
            showTerminal: (_chat, terminal) => this.shown.push(terminal),
            askPermission: (_chat, request: acp.RequestPermissionRequest) => this.onAskPermission(request),
            permissionWithdrawn: (_chat, toolCallId) => this.withdrawnPermissions.push(toolCallId),
            openEditorText: async (_chat, filePath) => {
                this.reads.push(filePath);
                return this.onOpenEditorText(filePath);
            },
            editedContentFor: async (_chat, request) => this.onEditedContentFor(request),
            didWriteTextFile: async (_chat, filePath) => { this.written.push(filePath); },
            onAgentExit: (_chat, message) => this.exits.push(message),
            onUnsupportedRequest: (chat, method) => this.unsupported.push(`${chat}: ${method}`),
            askQuestion: async (_chat, question) => {
                this.questions.push(question);
                return this.onAskQuestion(question);
            },
            questionClosed: (_chat, questionId, why) => this.closedQuestions.push(`${questionId}: ${why}`),
            onQuestionRefused: (_chat, reason) => this.refusedQuestions.push(reason)
        };
    }
}

/** Expects the call to be refused. */
export async function expectRejected(promise: Promise<unknown>): Promise<void> {
    const error = await promise.then(() => undefined, (rejection: Error) => rejection);
    expect(error, 'the call should have been refused').to.be.instanceOf(Error);
}
