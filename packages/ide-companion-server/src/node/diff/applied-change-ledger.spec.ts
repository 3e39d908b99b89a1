import { expect } from 'chai';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { AppliedChangeLedger, MAX_LEDGER_ENTRIES } from './applied-change-ledger';

/** Undo of changes the user did not review one by one: the bytes come back exactly, never outside the roots. */
describe('AppliedChangeLedger', () => {
    let base: string;
    let ws: string;
    let outside: string;
    let ledger: AppliedChangeLedger;

    beforeEach(() => {
        base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'applied-change-ledger-spec-')));
        ws = path.join(base, 'ws');
        outside = path.join(base, 'outside');
        fs.mkdirSync(ws);
        fs.mkdirSync(outside);
        ledger = new AppliedChangeLedger(() => [ws]);
    });

    afterEach(() => fs.rmSync(base, { recursive: true, force: true }));

    const refusal = (promise: Promise<unknown>) => promise.then(() => undefined, (error: Error) => error);

    it('puts back the exact bytes (BOM, CRLF, invalid UTF-8) and removes a file the change created', async () => {
        const file = path.join(ws, 'a.txt');
        const bytes = Buffer.from([0xef, 0xbb, 0xbf, 0x61, 0x0d, 0x0a, 0xff, 0x62]);
        fs.writeFileSync(file, bytes);
        const id = await ledger.record(file);
        fs.writeFileSync(file, 'the change\n');
        await ledger.restore(id);
        expect(fs.readFileSync(file).equals(bytes)).to.equal(true);
        expect(await refusal(ledger.restore(id)), 'used up').to.be.instanceOf(Error);

        const created = path.join(ws, 'new.txt');
        const newId = await ledger.record(created);
        fs.writeFileSync(created, 'created by the change\n');
        await ledger.restore(newId);
        expect(fs.existsSync(created)).to.equal(false);
    });

    it('refuses a relative path or one outside the roots, and never writes through a link planted in the file\'s place', async () => {
        expect((await refusal(ledger.record('a.txt')))?.message).to.match(/must be absolute/);
        const secret = path.join(outside, 'secret.txt');
        fs.writeFileSync(secret, 'secret\n');
        expect((await refusal(ledger.record(path.join(ws, '..', 'outside', 'secret.txt'))))?.message).to.match(/outside the workspace folders/);

        const file = path.join(ws, 'b.txt');
        fs.writeFileSync(file, 'before\n');
        const id = await ledger.record(file);
        fs.rmSync(file);
        fs.symlinkSync(secret, file);
        await refusal(ledger.restore(id));
        expect(fs.readFileSync(secret, 'utf8'), 'the file outside is untouched').to.equal('secret\n');
    });

    it('keeps a bounded number of entries, forgetting the oldest first', async () => {
        const file = path.join(ws, 'c.txt');
        fs.writeFileSync(file, 'c\n');
        const first = await ledger.record(file);
        for (let i = 0; i < MAX_LEDGER_ENTRIES; i++) {
            await ledger.record(file);
        }
        expect(ledger.size).to.equal(MAX_LEDGER_ENTRIES);
        expect((await refusal(ledger.restore(first)))?.message).to.match(/can no longer be undone/);
    });
});
