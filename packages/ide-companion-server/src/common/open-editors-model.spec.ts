import { expect } from 'chai';
import { MAX_OPEN_FILES, MAX_SELECTED_TEXT_LENGTH } from '@theia-cli-companion/ai-cli-ide-protocol/lib/common';
import { OpenEditorsModel, truncateSelection } from './open-editors-model';

describe('OpenEditorsModel', () => {
    let clock = 1000;
    const model = () => new OpenEditorsModel(() => clock);
    const uris = (m: OpenEditorsModel) => m.snapshot(true).openFiles.map(file => file.uri);

    it('orders files by last focus with strictly increasing timestamps, the focused one active', () => {
        const m = model();
        m.focus('file:///a');
        m.focus('file:///b');
        m.focus('file:///a');
        const files = m.snapshot(true).openFiles;
        expect(files.map(f => f.uri)).to.deep.equal(['file:///a', 'file:///b']);
        expect(files[0].timestamp).to.be.greaterThan(files[1].timestamp);
        expect(files.map(f => !!f.isActive)).to.deep.equal([true, false]);
        clock += 10;
    });

    it('puts files opened in the background after every focused one', () => {
        const m = model();
        m.focus('file:///a');
        m.open('file:///restored');
        expect(uris(m)).to.deep.equal(['file:///a', 'file:///restored']);
        expect(m.snapshot(true).openFiles[1].timestamp).to.equal(0);
    });

    it('keeps cursor and selection on the active file only, and drops them on blur', () => {
        const m = model();
        m.focus('file:///a');
        m.focus('file:///b');
        m.setActiveDetails('file:///a', { cursor: { line: 9, character: 9 }, selectedText: 'stale' });
        m.setActiveDetails('file:///b', { cursor: { line: 3, character: 7 }, selectedText: 'sel' });
        expect(m.snapshot(false)).to.deep.equal({
            isTrusted: false,
            openFiles: [
                { uri: 'file:///b', timestamp: m.snapshot(false).openFiles[0].timestamp, isActive: true, cursor: { line: 3, character: 7 }, selectedText: 'sel' },
                { uri: 'file:///a', timestamp: m.snapshot(false).openFiles[1].timestamp }
            ]
        });
        m.blur();
        expect(m.snapshot(true).openFiles.some(f => f.isActive || f.cursor || f.selectedText)).to.equal(false);
    });

    it('caps the list at 10 files, most recent first', () => {
        const m = model();
        for (let i = 0; i < 100; i++) {
            m.focus(`file:///f${i}`);
        }
        const files = uris(m);
        expect(files).to.have.length(MAX_OPEN_FILES);
        expect(files[0]).to.equal('file:///f99');
        expect(files[9]).to.equal('file:///f90');
    });

    it('truncates the selection to 16 KiB without splitting a surrogate pair', () => {
        const m = model();
        m.focus('file:///a');
        m.setActiveDetails('file:///a', { cursor: { line: 1, character: 1 }, selectedText: 'x'.repeat(3 * 1024 * 1024) });
        expect(m.snapshot(true).openFiles[0].selectedText).to.have.length(MAX_SELECTED_TEXT_LENGTH);
        const astral = 'x'.repeat(MAX_SELECTED_TEXT_LENGTH - 1) + '😀';
        expect(truncateSelection(astral)).to.equal('x'.repeat(MAX_SELECTED_TEXT_LENGTH - 1));
    });

    it('removes closed and deleted files (a deleted folder takes its files) and renames moved ones in place', () => {
        const m = model();
        m.focus('file:///w/dir/x.ts');
        m.focus('file:///w/dir2/y.ts');
        m.focus('file:///w/a.ts');
        m.rename('file:///w/a.ts', 'file:///w/b.ts');
        expect(uris(m)).to.deep.equal(['file:///w/b.ts', 'file:///w/dir2/y.ts', 'file:///w/dir/x.ts']);
        expect(m.snapshot(true).openFiles[0].isActive).to.equal(true);
        m.rename('file:///w/dir2', 'file:///w/moved');
        expect(uris(m)[1]).to.equal('file:///w/moved/y.ts');
        m.delete('file:///w/dir');
        expect(uris(m)).to.deep.equal(['file:///w/b.ts', 'file:///w/moved/y.ts']);
        m.close('file:///w/b.ts');
        expect(uris(m)).to.deep.equal(['file:///w/moved/y.ts']);
        expect(m.snapshot(true).openFiles[0].isActive).to.equal(undefined);
        // A sibling whose name merely starts the same is not a child.
        m.focus('file:///w/dir-other/z.ts');
        m.delete('file:///w/dir');
        expect(uris(m)).to.include('file:///w/dir-other/z.ts');
    });
});
