import { Container } from '@theia/core/shared/inversify';
import { ApplicationShell } from '@theia/core/lib/browser/shell/application-shell';
import { DiffUris } from '@theia/core/lib/browser/diff-uris';
import { OpenerService } from '@theia/core/lib/browser/opener-service';
import { BaseWidget } from '@theia/core/lib/browser/widgets/widget';
import { ILogger } from '@theia/core/lib/common/logger';
import { MessageService } from '@theia/core/lib/common/message-service';
import URI from '@theia/core/lib/common/uri';
import { FileService } from '@theia/filesystem/lib/browser/file-service';
import { IdeCompanionBackend } from '../../common/ide-companion-protocol';
import { DiffOutcome, fromRpcText, RpcText, toRpcText } from '@theia-cli-companion/ide-companion-server/lib/common';
import { DIFF_FOCUS_PREF, IdeCompanionPreferences } from '../../common/ide-companion-preferences';
import { CompanionLog } from '../companion-log';
import { TextModels } from '../text-models';
import { DiffReviewService } from '../diff-review/diff-review-service';
import { CliDiffRequests } from '../diff-review/cli-diff-requests';
import { AppliedChanges } from '../diff-review/applied-changes';
import { OverwriteCheck } from '../diff-review/overwrite-check';
import { ReviewEditors } from '../diff-review/review-editors';
import { ReviewedTexts } from '../diff-review/reviewed-texts';
import { OverwriteConfirmation } from '../diff-review/overwrite-confirmation';
import { ProposedContentResourceResolver } from '../diff-review/proposed-content-resource-resolver';
import { ReviewDiffRegistry } from '../review-changes/review-diff-registry';
import { ReviewPaceSettings } from '../diff-review/review-pace-settings';
import { ExecutionSettings } from '../untrusted-workspace/execution-settings';
import { PreferenceService } from '@theia/core/lib/common/preferences/preference-service';
import { CommandService } from '@theia/core/lib/common/command';
import { WorkspaceService } from '@theia/workspace/lib/browser/workspace-service';

/** The diff editor Theia would open: a widget that can be closed without saving, as Theia's editors can. */
export class ReviewWidget extends BaseWidget {
    constructor(readonly uri: URI) {
        super();
        this.id = `review-${uri.query}`;
    }

    async closeWithoutSaving(): Promise<void> {
        this.dispose();
    }

    /** The proposal side (the right) of the diff it shows. */
    get proposalUri(): string {
        return DiffUris.decode(this.uri)[1].toString();
    }
}

/** Files as the file service reports them: text and an etag that changes with every write. */
export class TestFiles {
    readonly contents = new Map<string, { text: string; etag: string }>();
    readonly written: { uri: string; text: string }[] = [];
    protected writes = 0;

    set(uri: string, text: string): void {
        this.contents.set(uri, { text, etag: `etag-${++this.writes}` });
    }

    readonly service = {
        resolve: async (uri: URI) => {
            const file = this.contents.get(uri.toString());
            if (!file) {
                throw new Error(`${uri} not found`);
            }
            return { etag: file.etag };
        },
        read: async (uri: URI) => {
            const file = this.contents.get(uri.toString());
            if (!file) {
                throw new Error(`${uri} not found`);
            }
            return { value: file.text, etag: file.etag };
        },
        write: async (uri: URI, text: string) => {
            this.written.push({ uri: uri.toString(), text });
            this.set(uri.toString(), text);
        }
    };
}

/**
 * Monaco's models as the review reads them: a proposal shows its resource's text until the user
 * edits it (dirty from then on, since nothing can save it); a file's editor may hold unsaved edits.
 */
export class TestTextModels implements TextModels {
    readonly edited = new Map<string, string>();
    readonly dirtyFiles = new Set<string>();

    constructor(protected readonly resources: ProposedContentResourceResolver) { }

    async read(uri: URI): Promise<{ text: string; dirty: boolean }> {
        const edit = this.edited.get(uri.toString());
        if (edit !== undefined) {
            return { text: edit, dirty: true };
        }
        return { text: await this.resources.resolve(uri).readContents(), dirty: false };
    }

    loaded(uri: URI): { dirty: boolean } | undefined {
        return this.dirtyFiles.has(uri.toString()) ? { dirty: true } : undefined;
    }

    async save(): Promise<void> { }
}

/**
 * The real `DiffReviewService`, its CLI route `CliDiffRequests` and its `AppliedChanges` (with the real
 * proposal resources) over what only a browser has: the
 * opener opens a `ReviewWidget` instead of Monaco's diff editor, the models are `TestTextModels`, the
 * backend and dialogs record what they are told. Needs `enableBrowserDom`.
 */
export class DiffReviewTestbed {
    readonly files = new TestFiles();
    readonly opened: ReviewWidget[] = [];
    /** What the backend was told, in order. */
    readonly resolved: { id: string; outcome: DiffOutcome }[] = [];
    resolveFails = false;
    /** The opener opens no editor (as Theia's, for a diff it cannot show). */
    opensNothing = false;
    /** The opener opens its editor once this settles (an editor that takes its time). */
    opening: Promise<void> = Promise.resolve();
    recordFails = false;
    readonly ledger = new Map<string, { fileUri: string; before: string | undefined }>();
    /** The problems of each overwrite confirmation asked, and the answer the user gives (a promise: the user has not answered yet). */
    readonly questions: (readonly string[])[] = [];
    answer: boolean | Promise<boolean> = true;
    readonly errors: string[] = [];
    readonly warnings: string[] = [];
    readonly infos: string[] = [];
    /** The user's settings and the workspace's (`.theia/settings.json`), by name. */
    readonly userSettings = new Map<string, unknown>();
    readonly workspaceSettings = new Map<string, unknown>();
    readonly preferences: Record<string, unknown> = { [DIFF_FOCUS_PREF]: 'auto' };
    readonly models: TestTextModels;
    readonly service: DiffReviewService;
    /** The route of a CLI's proposals, as the window's RPC client calls it. */
    readonly cli: CliDiffRequests;
    readonly appliedChanges: AppliedChanges;

    constructor() {
        const container = new Container();
        container.bind(ProposedContentResourceResolver).toSelf().inSingletonScope();
        this.models = new TestTextModels(container.get(ProposedContentResourceResolver));
        container.bind(TextModels).toConstantValue(this.models);
        container.bind(OpenerService).toConstantValue({
            getOpener: async () => ({
                id: 'diff', canHandle: () => 1,
                open: async (uri: URI) => {
                    await this.opening;
                    if (this.opensNothing) {
                        return undefined;
                    }
                    const widget = new ReviewWidget(uri);
                    this.opened.push(widget);
                    return widget;
                }
            }),
            getOpeners: async () => []
        } as unknown as OpenerService);
        container.bind(ApplicationShell).toConstantValue({
            activeWidget: undefined, currentWidget: undefined, activateWidget: async () => undefined
        } as unknown as ApplicationShell);
        container.bind(IdeCompanionBackend).toConstantValue({
            resolveDiff: async (id: string, outcome: DiffOutcome) => {
                if (this.resolveFails) {
                    throw new Error('connection lost');
                }
                this.resolved.push({ id, outcome });
            },
            // The backend's ledger as it behaves (its own spec covers the bytes and the roots): by file, over TestFiles.
            recordBeforeChange: async (fileUri: string) => {
                if (this.recordFails) {
                    throw new Error('outside the workspace folders');
                }
                const id = `undo-${this.ledger.size + 1}`;
                this.ledger.set(id, { fileUri, before: this.files.contents.get(fileUri)?.text });
                return id;
            },
            // The backend's write of an accepted text (its own spec covers the roots): over TestFiles.
            writeAccepted: async (fileUri: string, content: RpcText) => this.files.service.write(new URI(fileUri), fromRpcText(content)),
            undoChange: async (id: string) => {
                const entry = this.ledger.get(id)!;
                if (entry.before === undefined) {
                    this.files.contents.delete(entry.fileUri);
                } else {
                    this.files.set(entry.fileUri, entry.before);
                }
            }
        } as unknown as IdeCompanionBackend);
        container.bind(MessageService).toConstantValue({
            error: async (message: string) => {
                this.errors.push(message);
                return undefined;
            },
            warn: async (message: string) => {
                this.warnings.push(message);
                return undefined;
            },
            info: async (message: string) => {
                this.infos.push(message);
                return undefined;
            }
        } as unknown as MessageService);
        container.bind(FileService).toConstantValue(this.files.service as unknown as FileService);
        container.bind(ILogger).toConstantValue({ warn: async () => undefined, error: async () => undefined } as unknown as ILogger);
        container.bind(IdeCompanionPreferences).toConstantValue(this.preferences as unknown as IdeCompanionPreferences);
        container.bind(CompanionLog).toConstantValue({ info: () => undefined, warn: () => undefined, error: () => undefined });
        container.bind(OverwriteConfirmation).toConstantValue({
            confirm: async (problems: readonly string[]) => {
                this.questions.push(problems);
                return this.answer;
            }
        });
        container.bind(ReviewDiffRegistry).toSelf().inSingletonScope();
        // The real pace settings over Theia's preference service as it answers `inspect`.
        container.bind(PreferenceService).toConstantValue({
            inspect: (name: string) => ({ preferenceName: name, globalValue: this.userSettings.get(name), workspaceValue: this.workspaceSettings.get(name) }),
            set: async (name: string, value: unknown) => { this.userSettings.set(name, value); }
        } as unknown as PreferenceService);
        container.bind(WorkspaceService).toConstantValue({ tryGetRoots: () => [] } as unknown as WorkspaceService);
        container.bind(CommandService).toConstantValue({ executeCommand: async () => undefined });
        container.bind(ExecutionSettings).toSelf().inSingletonScope();
        container.bind(ReviewPaceSettings).toSelf().inSingletonScope();
        container.bind(ReviewEditors).toSelf().inSingletonScope();
        container.bind(ReviewedTexts).toSelf().inSingletonScope();
        container.bind(OverwriteCheck).toSelf().inSingletonScope();
        container.bind(AppliedChanges).toSelf().inSingletonScope();
        container.bind(DiffReviewService).toSelf().inSingletonScope();
        container.bind(CliDiffRequests).toSelf().inSingletonScope();
        this.service = container.get(DiffReviewService);
        this.cli = container.get(CliDiffRequests);
        this.appliedChanges = container.get(AppliedChanges);
    }

    /**
     * A CLI's proposal for /workspace/<name>, opened as the backend opens it; answers its review. The file
     * holds `original` (a line by default); `groupId` is the proposing session.
     */
    async propose(id: string, name: string, newContent: string, fileExists = true, options: { original?: string; groupId?: string } = {}): Promise<ReviewWidget> {
        if (fileExists) {
            this.files.set(DiffReviewTestbed.fileUri(name), options.original ?? 'the file as it is\n');
        }
        const groupId = options.groupId ?? 'session-1';
        await this.cli.openDiff({ id, fileUri: DiffReviewTestbed.fileUri(name), newContent: toRpcText(newContent), fileExists, proposedBy: 'Gemini CLI (test 1.0)',
            origin: { kind: 'cli', groupId, label: `Gemini CLI (test 1.0) ${groupId}`, flavour: 'gemini' } });
        return this.opened[this.opened.length - 1];
    }

    /** What the backend was told, decoded. */
    answers(): ({ id: string; accepted: string } | { id: string; rejected: true })[] {
        return this.resolved.map(({ id, outcome }) => outcome.accepted ? { id, accepted: fromRpcText(outcome.content) } : { id, rejected: true as const });
    }

    static fileUri(name: string): string {
        return `file:///workspace/${name}`;
    }
}
