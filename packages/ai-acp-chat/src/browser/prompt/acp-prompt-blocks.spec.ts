import { expect } from 'chai';
import { PromptAttachment, promptBlocks } from './acp-prompt-blocks';

const FILE: PromptAttachment = { kind: 'file', uri: 'file:///ws/src/a.ts', label: 'ws/src/a.ts', text: 'export const a = 1;\n' };
const SELECTION: PromptAttachment = { kind: 'file', uri: 'file:///ws/src/a.ts', label: 'ws/src/a.ts:3-5', text: 'three\nfour\nfive', range: { start: 3, end: 5 } };
const IMAGE: PromptAttachment = { kind: 'image', label: 'shot.png', data: 'iVBORw0KGgo=', mimeType: 'image/png' };
const TASK: PromptAttachment = { kind: 'text', label: '#taskContext:t1', text: 'the plan' };

describe('promptBlocks: a chat message and its attachments as ACP content', () => {
    it('embeds files and selections (with their lines in the URI) where the agent takes embedded context', () => {
        const { blocks, outcomes } = promptBlocks('Explain', [FILE, SELECTION], { embeddedContext: true }, 'Gemini');
        expect(blocks).to.deep.equal([
            { type: 'text', text: 'Explain' },
            { type: 'resource', resource: { uri: 'file:///ws/src/a.ts', text: 'export const a = 1;\n', mimeType: 'text/plain' } },
            { type: 'resource', resource: { uri: 'file:///ws/src/a.ts#L3-5', text: 'three\nfour\nfive', mimeType: 'text/plain' } }
        ]);
        expect(outcomes.map(outcome => outcome.sentAs)).to.deep.equal(['embedded', 'embedded']);
    });

    it('links them otherwise (the baseline every agent takes), saying which lines in words', () => {
        const { blocks, outcomes } = promptBlocks('Explain', [FILE, SELECTION], {}, 'Mine');
        expect(blocks).to.deep.equal([
            { type: 'text', text: 'Explain' },
            { type: 'resource_link', uri: 'file:///ws/src/a.ts', name: 'ws/src/a.ts' },
            { type: 'resource_link', uri: 'file:///ws/src/a.ts#L3-5', name: 'ws/src/a.ts:3-5' },
            { type: 'text', text: '(ws/src/a.ts:3-5: lines 3-5)' }
        ]);
        expect(outcomes.map(outcome => outcome.sentAs)).to.deep.equal(['link', 'link']);
        expect(promptBlocks('x', [FILE], undefined, 'Mine').blocks[1].type, 'no capabilities at all').to.equal('resource_link');
    });

    it('sends images only to an agent that takes them, and says so when it does not', () => {
        expect(promptBlocks('Look', [IMAGE], { image: true }, 'Gemini').blocks[1]).to.deep.equal({ type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' });
        const refused = promptBlocks('Look', [IMAGE], { embeddedContext: true }, 'Mine');
        expect(refused.blocks).to.deep.equal([{ type: 'text', text: 'Look' }]);
        expect(refused.outcomes).to.deep.equal([{ label: 'shot.png', sentAs: 'not-sent', reason: 'Mine does not accept images' }]);
    });

    it('sends other context as named text, and a one-line selection as #L<n>', () => {
        const oneLine: PromptAttachment = { ...SELECTION, range: { start: 4, end: 4 }, text: 'four' };
        const { blocks } = promptBlocks('', [TASK, oneLine], { embeddedContext: true }, 'Gemini');
        expect(blocks).to.deep.equal([
            { type: 'text', text: '#taskContext:t1:\nthe plan' },
            { type: 'resource', resource: { uri: 'file:///ws/src/a.ts#L4', text: 'four', mimeType: 'text/plain' } }
        ]);
    });
});
