import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import { geminiDiscoveryLocation } from './gemini-discovery-location';
import { privateTmpDirectory } from '@theia-cli-companion/safe-files/lib/node';
import { useTemporaryHome } from './test/temporary-home';

/** The uid of `nobody`: "another account" when the spec runs as root (as CI does). */
const OTHER_ACCOUNT = 65534;

describe('geminiDiscoveryLocation', () => {
    let home: ReturnType<typeof useTemporaryHome>;
    const uid = process.getuid!();
    const shared = () => path.join(process.env.TMPDIR!, 'gemini');
    const standard = () => path.join(shared(), 'ide');

    beforeEach(() => home = useTemporaryHome());
    afterEach(() => home.restore());

    function expectPrivate(because: RegExp): void {
        const location = geminiDiscoveryLocation();
        expect(location.directory).to.equal(path.join(privateTmpDirectory(), 'gemini', 'ide'));
        expect(location.terminalTmpdir).to.equal(privateTmpDirectory());
        expect(location.reason).to.match(because);
        expect(location.reason).to.contain('TMPDIR');
    }

    it('is the standard <tmpdir>/gemini/ide, created 0700 when absent, with no TMPDIR for the terminals', () => {
        const location = geminiDiscoveryLocation();
        expect(location.directory).to.equal(standard());
        expect(location.terminalTmpdir).to.equal(undefined);
        expect(location.reason).to.match(/^the standard directory/);
        for (const dir of [shared(), standard()]) {
            expect(fs.lstatSync(dir).isDirectory(), dir).to.equal(true);
            expect(fs.lstatSync(dir).mode & 0o777, dir).to.equal(0o700);
            expect(fs.lstatSync(dir).uid, dir).to.equal(uid);
        }
        expect(geminiDiscoveryLocation()).to.deep.equal(location);
    });

    it('takes the standard directories the user already has, as the VS Code companion leaves them (0755)', () => {
        fs.mkdirSync(standard(), { recursive: true });
        fs.chmodSync(shared(), 0o755);
        fs.chmodSync(standard(), 0o755);
        const location = geminiDiscoveryLocation();
        expect(location.directory).to.equal(standard());
        expect(location.terminalTmpdir).to.equal(undefined);
    });

    it('uses the private directory when another account holds <tmpdir>/gemini', function (): void {
        if (uid !== 0) {
            // Needs chown to another uid. CI runs as root, where this never skips.
            this.skip();
        }
        fs.mkdirSync(shared(), { mode: 0o755 });
        fs.chownSync(shared(), OTHER_ACCOUNT, OTHER_ACCOUNT);
        expectPrivate(new RegExp(`${shared()} belongs to another account \\(uid ${OTHER_ACCOUNT}\\)`));
        expect(fs.readdirSync(shared()), 'nothing created in the other account\'s directory').to.deep.equal([]);
    });

    it('uses the private directory when <tmpdir>/gemini/ide is another account\'s', function (): void {
        if (uid !== 0) {
            this.skip();
        }
        fs.mkdirSync(standard(), { recursive: true, mode: 0o755 });
        fs.chownSync(standard(), OTHER_ACCOUNT, OTHER_ACCOUNT);
        expectPrivate(new RegExp(`${standard()} belongs to another account`));
    });

    it('uses the private directory when <tmpdir>/gemini or its ide/ is a link, even to a directory of the user\'s', () => {
        const elsewhere = path.join(home.dir, 'elsewhere');
        fs.mkdirSync(elsewhere, { mode: 0o700 });
        fs.symlinkSync(elsewhere, shared());
        expectPrivate(new RegExp(`${shared()} is a symbolic link`));
        expect(fs.readdirSync(elsewhere)).to.deep.equal([]);
    });

    it('uses the private directory when ide/ is a link', () => {
        const elsewhere = path.join(home.dir, 'elsewhere');
        fs.mkdirSync(elsewhere, { mode: 0o700 });
        fs.mkdirSync(shared(), { mode: 0o700 });
        fs.symlinkSync(elsewhere, standard());
        expectPrivate(new RegExp(`${standard()} is a symbolic link`));
    });

    it('uses the private directory when the user\'s own <tmpdir>/gemini is writable by others: what they put there stays', () => {
        fs.mkdirSync(standard(), { recursive: true });
        fs.chmodSync(shared(), 0o777);
        expectPrivate(new RegExp(`${shared()} is writable by other accounts \\(mode 777\\)`));
        expect(fs.statSync(shared()).mode & 0o777, 'left as it is').to.equal(0o777);
    });

    it('uses the private directory when a file holds the name', () => {
        fs.writeFileSync(shared(), '');
        expectPrivate(new RegExp(`${shared()} is not a directory`));
    });

    it('uses the private directory (under the user\'s cache) when anyone may rename things in <tmpdir>', () => {
        const open = path.join(home.dir, 'open-tmp');
        fs.mkdirSync(open);
        fs.chmodSync(open, 0o777);
        process.env.TMPDIR = open;
        expectPrivate(/lets other accounts rename what is in it/);
        expect(fs.readdirSync(open)).to.deep.equal([]);
    });

    it('keeps to the private directory for the process once it was refused, and checks the standard one again on each call', () => {
        expect(geminiDiscoveryLocation().terminalTmpdir).to.equal(undefined);
        // A tmp cleaner removed the idle directory, and something else took the name.
        fs.rmSync(shared(), { recursive: true });
        fs.writeFileSync(shared(), '');
        expect(geminiDiscoveryLocation().terminalTmpdir).to.equal(privateTmpDirectory());
        fs.rmSync(shared());
        expect(geminiDiscoveryLocation().terminalTmpdir, 'still private').to.equal(privateTmpDirectory());
    });
});
