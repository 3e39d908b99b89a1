import { enableBrowserDom } from '../test/browser-dom';
let disableDom = enableBrowserDom();

import { expect } from 'chai';
import { Container } from '@theia/core/shared/inversify';
import { ApplicationShell } from '@theia/core/lib/browser/shell/application-shell';
import { OpenerService } from '@theia/core/lib/browser/opener-service';
import { BaseWidget } from '@theia/core/lib/browser/widgets/widget';
import { DiffUris } from '@theia/core/lib/browser/diff-uris';
import { ILogger } from '@theia/core/lib/common/logger';
import { MessageService } from '@theia/core/lib/common/message-service';
import URI from '@theia/core/lib/common/uri';
import { FileService } from '@theia/filesystem/lib/browser/file-service';
import { DiffOutcome, IdeCompanionBackend } from '../../common/ide-companion-protocol';
import { DIFF_FOCUS_PREF, DIFF_WRITE_ON_ACCEPT_PREF, IdeCompanionPreferences } from '../../common/ide-companion-preferences';
import { fromRpcText, toRpcText } from '../../common/rpc-text';
import { CompanionLog } from '../companion-log';
import { TextModels } from '../text-models';
import { DiffReviewService, ReviewedProposal } from './diff-review-service';
import { OverwriteConfirmation } from './overwrite-confirmation';
import { ProposedContentResourceResolver } from './proposed-content-resource-resolver';

disableDom();

/** The diff editor Theia would open: a widget that can be closed without saving, as Theia's editors can. */
class ReviewWidget extends BaseWidget {
    constructor(readonly uri: URI) {
        super();
        this.id = `review-${uri.query}`;
    }
    async closeWithoutSaving(): Promise<void> {
        this.dispose();
    }
}

/** Files as the file service reports them: text and an etag that changes with every write. */
class Files {
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
class Models implements TextModels {
    readonly edited = new Map<string, string>();
    readonly dirtyFiles = new Set<string>();
    constructor(protected readonly resources: ProposedContentResourceResolver) { }
    async read(uri: URI): Promise<{ text: string; dirty: boolean }> {
        const edit = this.edited.get(uri.toString());
        if (edit !== undefined) {
            return { text: edit, dirty: true };
        }
        const resource = this.resources.resolve(uri);
        return { text: await resource.readContents(), dirty: false };
    }
    loaded(uri: URI): { dirty: boolean } | undefined {
        return this.dirtyFiles.has(uri.toString()) ? { dirty: true } : undefined;
    }
    async save(): Promise<void> { }
}

describe('DiffReviewService', () => {
    let service: DiffReviewService;
    let files: Files;
    let models: Models;
    let opened: ReviewWidget[];
    let resolved: { id: string; outcome: DiffOutcome }[];
    let resolveFails: boolean;
    let questions: (readonly string[])[];
    let answer: boolean;
    let errors: string[];
    let preferences: Record<string, unknown>;

    before(() => disableDom = enableBrowserDom());
    after(() => disableDom());

    beforeEach(() => {
        files = new Files();
        opened = [];
        resolved = [];
        resolveFails = false;
        questions = [];
        answer = true;
        errors = [];
        preferences = { [DIFF_FOCUS_PREF]: 'auto', [DIFF_WRITE_ON_ACCEPT_PREF]: false };
        const container = new Container();
        container.bind(ProposedContentResourceResolver).toSelf().inSingletonScope();
        models = new Models(container.get(ProposedContentResourceResolver));
        container.bind(TextModels).toConstantValue(models);
        container.bind(OpenerService).toConstantValue({
            getOpener: async () => ({
                id: 'diff', canHandle: () => 1,
                open: async (uri: URI) => {
                    const widget = new ReviewWidget(uri);
                    opened.push(widget);
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
                if (resolveFails) {
                    throw new Error('connection lost');
                }
                resolved.push({ id, outcome });
            }
        } as unknown as IdeCompanionBackend);
        container.bind(MessageService).toConstantValue({ error: async (message: string) => { errors.push(message); return undefined; } } as unknown as MessageService);
        container.bind(FileService).toConstantValue(files.service as unknown as FileService);
        container.bind(ILogger).toConstantValue({ warn: async () => undefined, error: async () => undefined } as unknown as ILogger);
        container.bind(IdeCompanionPreferences).toConstantValue(preferences as unknown as IdeCompanionPreferences);
        container.bind(CompanionLog).toConstantValue({ info: () => undefined, warn: () => undefined, error: () => undefined });
        container.bind(OverwriteConfirmation).toConstantValue({
            confirm: async (problems: readonly string[]) => {
                questions.push(problems);
                return answer;
            }
        });
        container.bind(DiffReviewService).toSelf().inSingletonScope();
        service = container.get(DiffReviewService);
    });

    const fileUri = (name: string) => `file:///workspace/${name}`;
    const propose = async (id: string, name: string, newContent: string, fileExists = true) => {
        if (fileExists) {
            files.set(fileUri(name), 'the file as it is\n');
        }
        await service.openDiff({ id, fileUri: fileUri(name), newContent: toRpcText(newContent), fileExists, proposedBy: 'Gemini CLI (test 1.0)' });
        return opened[opened.length - 1];
    };
    const answers = () => resolved.map(({ id, outcome }) => outcome.accepted ? { id, accepted: fromRpcText(outcome.content) } : { id, rejected: true });

    it('opens the file against its proposal, titled with who proposed it, and lists it as pending', async () => {
        const widget = await propose('d1', 'a.ts', 'proposed\n');
        expect(widget.uri.scheme).to.equal('diff');
        const [left, right] = DiffUris.decode(widget.uri);
        expect(left.toString()).to.equal(fileUri('a.ts'));
        expect(right.scheme).to.not.equal('file');
        expect(decodeURIComponent(widget.uri.toString())).to.contain('a.ts ↔ proposed by Gemini CLI (test 1.0)');
        expect(service.pending.map(proposal => proposal.id)).to.deep.equal(['d1']);
        expect(service.idOf(widget)).to.equal('d1');
    });

    it('accepts an unedited proposal byte for byte (mixed line endings, a BOM), and an edited one as the user left it', async () => {
        const verbatim = '\uFEFFone\r\ntwo\nthree';
        await propose('d1', 'a.ts', verbatim);
        await service.accept('d1');
        const widget = await propose('d2', 'b.ts', 'one\ntwo\n');
        models.edited.set(proposalUriOf(widget), 'one\n2\nthree\n');
        await service.accept('d2');
        expect(answers()).to.deep.equal([{ id: 'd1', accepted: verbatim }, { id: 'd2', accepted: 'one\n2\nthree\n' }]);
        expect(opened.every(review => review.isDisposed), 'every accepted review closed').to.equal(true);
        expect(service.pending).to.deep.equal([]);
    });

    it('asks before accepting over unsaved edits of the file, and accepts only when the user says so', async () => {
        await propose('d1', 'a.ts', 'proposed\n');
        models.dirtyFiles.add(fileUri('a.ts'));
        answer = false;
        await service.accept('d1');
        expect(questions).to.have.length(1);
        expect(questions[0].join(' ')).to.contain('a.ts has unsaved changes');
        expect(resolved, 'declined: still pending').to.deep.equal([]);
        expect(service.pending.map(proposal => proposal.id)).to.deep.equal(['d1']);
        answer = true;
        await service.accept('d1');
        expect(answers()).to.deep.equal([{ id: 'd1', accepted: 'proposed\n' }]);
    });

    it('asks before accepting when the file changed on disk since the diff opened, or appeared since', async () => {
        await propose('d1', 'a.ts', 'proposed\n');
        files.set(fileUri('a.ts'), 'someone else wrote this\n');
        await propose('d2', 'new.ts', 'new file\n', false);
        files.set(fileUri('new.ts'), 'created meanwhile\n');
        await service.accept('d1');
        await service.accept('d2');
        expect(questions.map(problems => problems.join(' '))).to.satisfy((texts: string[]) =>
            texts[0].includes('a.ts changed on disk') && texts[1].includes('new.ts changed on disk'));
        expect(answers().map(outcome => outcome.id)).to.deep.equal(['d1', 'd2']);
    });

    it('accepts a new file without asking when nothing appeared at its path', async () => {
        await propose('d1', 'new.ts', 'new file\n', false);
        await service.accept('d1');
        expect(questions).to.deep.equal([]);
        expect(answers()).to.deep.equal([{ id: 'd1', accepted: 'new file\n' }]);
    });

    it('rejects when the review is closed, edited or not, once, and without a save prompt', async () => {
        const plain = await propose('d1', 'a.ts', 'proposed\n');
        const edited = await propose('d2', 'b.ts', 'proposed\n');
        models.edited.set(proposalUriOf(edited), 'edited\n');
        plain.close();
        edited.close();
        await service.accept('d1');
        await service.reject('d2');
        expect(answers()).to.deep.equal([{ id: 'd1', rejected: true }, { id: 'd2', rejected: true }]);
        expect(edited.isDisposed, 'closed at once: the close of an edited review asks nothing').to.equal(true);
    });

    it('settles only the diff it is asked to among several, and rejects the rest at once', async () => {
        const first = await propose('d1', 'a.ts', 'a\n');
        const second = await propose('d2', 'b.ts', 'b\n');
        await propose('d3', 'c.ts', 'c\n');
        await service.accept('d2');
        expect(second.isDisposed).to.equal(true);
        expect(first.isDisposed).to.equal(false);
        expect(service.pending.map(proposal => proposal.id)).to.deep.equal(['d1', 'd3']);
        await service.rejectAll();
        expect(answers()).to.deep.equal([{ id: 'd2', accepted: 'b\n' }, { id: 'd1', rejected: true }, { id: 'd3', rejected: true }]);
        expect(opened.every(widget => widget.isDisposed)).to.equal(true);
    });

    it('closes without an answer when the CLI decided, and returns what the proposal shows', async () => {
        const widget = await propose('d1', 'a.ts', 'proposed\n');
        models.edited.set(proposalUriOf(widget), 'proposed, edited\n');
        expect(await service.closeDiff('d1')).to.equal('proposed, edited\n');
        expect(widget.isDisposed).to.equal(true);
        expect(resolved).to.deep.equal([]);
        expect(await service.closeDiff('unknown')).to.equal(undefined);
    });

    it('gives the answer to its own handler for a review the window opened (an ACP permission), not to a CLI', async () => {
        const outcomes: unknown[] = [];
        const proposal: ReviewedProposal = { id: 'acp-1', fileUri: fileUri('a.ts'), newContent: 'agent\n', fileExists: true, proposedBy: 'Gemini' };
        files.set(fileUri('a.ts'), 'old\n');
        await service.review(proposal, outcome => outcomes.push(outcome));
        preferences[DIFF_WRITE_ON_ACCEPT_PREF] = true;
        await service.accept('acp-1');
        expect(outcomes).to.deep.equal([{ accepted: true, content: 'agent\n' }]);
        expect(resolved).to.deep.equal([]);
        expect(files.written, 'the agent writes through the ACP client, not the review').to.deep.equal([]);
    });

    it('writes the accepted text itself only when the preference says so', async () => {
        await propose('d1', 'a.ts', 'one\n');
        await service.accept('d1');
        preferences[DIFF_WRITE_ON_ACCEPT_PREF] = true;
        await propose('d2', 'b.ts', 'two\n');
        await service.accept('d2');
        expect(files.written).to.deep.equal([{ uri: fileUri('b.ts'), text: 'two\n' }]);
    });

    it('tells the user when the answer cannot reach the backend', async () => {
        await propose('d1', 'a.ts', 'proposed\n');
        resolveFails = true;
        await service.accept('d1');
        await until(() => errors.length > 0);
        expect(errors[0]).to.contain('connection lost');
    });
});

/** The proposal side (the right) of a review widget's diff URI. */
function proposalUriOf(widget: ReviewWidget): string {
    return DiffUris.decode(widget.uri)[1].toString();
}

async function until(condition: () => boolean): Promise<void> {
    for (let attempt = 0; !condition(); attempt++) {
        if (attempt > 200) {
            throw new Error('Timed out');
        }
        await new Promise(resolve => setTimeout(resolve, 5));
    }
}
