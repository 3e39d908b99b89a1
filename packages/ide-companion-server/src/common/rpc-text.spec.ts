import { expect } from 'chai';
import { fromRpcText, toRpcText } from './rpc-text';

describe('RpcText', () => {
    it('carries a leading BOM as a flag and restores the text exactly', () => {
        for (const text of ['', 'plain', '\uFEFF', '\uFEFFwith bom\r\n', 'inner \uFEFF stays', '\uFEFF\uFEFFtwo']) {
            const wire = toRpcText(text);
            expect(wire.text.startsWith('\uFEFF') && wire.bom).to.equal(text.startsWith('\uFEFF\uFEFF'));
            expect(fromRpcText(JSON.parse(JSON.stringify(wire)))).to.equal(text);
        }
    });

    it('refuses anything else', () => {
        for (const bad of [undefined, null, 'text', { text: 1, bom: false }, { text: 'x' }, { bom: true }]) {
            expect(() => fromRpcText(bad), JSON.stringify(bad)).to.throw(/bom: boolean, text: string/);
        }
    });
});
