import { enableBrowserDom } from './test/browser-dom';
let disableDom = enableBrowserDom();

import { expect } from 'chai';
import { Container } from '@theia/core/shared/inversify';
import { Event } from '@theia/core/lib/common/event';
import URI from '@theia/core/lib/common/uri';
import { DiagnosticSeverity } from '@theia/core/shared/vscode-languageserver-protocol';
import { EditorManager } from '@theia/editor/lib/browser/editor-manager';
import { FileService } from '@theia/filesystem/lib/browser/file-service';
import { ProblemManager } from '@theia/markers/lib/browser/problem/problem-manager';
import { TextModels } from './text-models';
import { WindowIdeTools } from './window-ide-tools';

disableDom();

describe('WindowIdeTools', () => {
    let tools: WindowIdeTools;
    let problems: ProblemManager;
    let dirty: Set<string>;
    let saved: string[];
    let opened: { uri: string; options: unknown }[];

    before(() => disableDom = enableBrowserDom());
    after(() => disableDom());

    beforeEach(() => {
        dirty = new Set();
        saved = [];
        opened = [];
        const container = new Container();
        // Theia's real problem manager; its file service is only asked about deleted files.
        container.bind(FileService).toConstantValue({ onDidFilesChange: Event.None } as unknown as FileService);
        container.bind(ProblemManager).toSelf().inSingletonScope();
        const models: TextModels = {
            read: async () => ({ text: '', dirty: false }),
            loaded: uri => dirty.has(uri.toString()) || uri.path.base.startsWith('open') ? { dirty: dirty.has(uri.toString()) } : undefined,
            save: async uri => {
                if (dirty.delete(uri.toString())) {
                    saved.push(uri.toString());
                }
            }
        };
        container.bind(TextModels).toConstantValue(models);
        container.bind(EditorManager).toConstantValue({
            open: async (uri: URI, options: unknown) => {
                opened.push({ uri: uri.toString(), options });
                return undefined;
            }
        } as unknown as EditorManager);
        container.bind(WindowIdeTools).toSelf().inSingletonScope();
        tools = container.get(WindowIdeTools);
        problems = container.get(ProblemManager);
    });

    const range = (line: number, character: number, endLine: number, endCharacter: number) =>
        ({ start: { line, character }, end: { line: endLine, character: endCharacter } });

    it('reports the problems Theia knows for workspace files, 1-based, by file or all at once', async () => {
        problems.setMarkers(new URI('file:///ws/a.ts'), 'typescript', [
            { range: range(0, 4, 0, 9), message: 'Cannot find name', severity: DiagnosticSeverity.Error, source: 'ts', code: 2304 },
            { range: range(2, 0, 3, 1), message: 'Unused', severity: DiagnosticSeverity.Hint }
        ]);
        problems.setMarkers(new URI('file:///ws/b.md'), 'lint', [{ range: range(1, 1, 1, 2), message: 'Spelling' }]);
        problems.setMarkers(new URI('untitled:Untitled-1'), 'lint', [{ range: range(0, 0, 0, 1), message: 'not a file' }]);

        const all = await tools.getDiagnostics();
        expect(all.map(file => file.filePath).sort()).to.deep.equal(['/ws/a.ts', '/ws/b.md']);
        expect(await tools.getDiagnostics('file:///ws/a.ts')).to.deep.equal([{
            filePath: '/ws/a.ts',
            diagnostics: [
                { severity: 'error', message: 'Cannot find name', source: 'ts', code: '2304', range: range(1, 5, 1, 10) },
                { severity: 'hint', message: 'Unused', range: range(3, 1, 4, 2) }
            ]
        }]);
        expect((await tools.getDiagnostics('file:///ws/b.md'))[0].diagnostics[0].severity, 'no severity counts as an error').to.equal('error');
        expect(await tools.getDiagnostics('file:///ws/none.ts')).to.deep.equal([]);
    });

    it('tells whether a document is open and dirty, and saves only a dirty one', async () => {
        dirty.add('file:///ws/open-dirty.ts');
        expect(await tools.getDocumentState('file:///ws/open-dirty.ts')).to.deep.equal({ filePath: '/ws/open-dirty.ts', isOpen: true, isDirty: true });
        expect(await tools.getDocumentState('file:///ws/open-clean.ts')).to.deep.equal({ filePath: '/ws/open-clean.ts', isOpen: true, isDirty: false });
        expect(await tools.getDocumentState('file:///ws/closed.ts')).to.deep.equal({ filePath: '/ws/closed.ts', isOpen: false, isDirty: false });
        expect(await tools.saveDocument('file:///ws/open-dirty.ts')).to.deep.include({ isOpen: true, isDirty: false });
        expect(await tools.saveDocument('file:///ws/open-clean.ts')).to.deep.include({ isDirty: false });
        expect(saved).to.deep.equal(['file:///ws/open-dirty.ts']);
    });

    it('opens a file at a 1-based line, selecting through the end line only when asked', async () => {
        await tools.openFile({ fileUri: 'file:///ws/a.ts', startLine: 3, endLine: 5, select: true });
        await tools.openFile({ fileUri: 'file:///ws/a.ts', startLine: 3, endLine: 5, select: false });
        await tools.openFile({ fileUri: 'file:///ws/a.ts' });
        expect(opened).to.deep.equal([
            { uri: 'file:///ws/a.ts', options: { mode: 'activate', selection: { start: { line: 2, character: 0 }, end: { line: 5, character: 0 } } } },
            { uri: 'file:///ws/a.ts', options: { mode: 'activate', selection: { start: { line: 2, character: 0 }, end: { line: 2, character: 0 } } } },
            { uri: 'file:///ws/a.ts', options: { mode: 'activate' } }
        ]);
    });
});
