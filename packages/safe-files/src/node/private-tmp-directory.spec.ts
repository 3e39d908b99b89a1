import { expect } from 'chai';
import * as fs from 'fs';
import * as path from 'path';
import { privateTmpDirectory } from './private-tmp-directory';
import { useTemporaryHome } from './test/temporary-home';

describe('privateTmpDirectory', () => {
    let home: ReturnType<typeof useTemporaryHome>;
    const uid = process.getuid!();
    const preferred = () => path.join(process.env.TMPDIR!, `theia-cli-companion-${uid}`);

    beforeEach(() => home = useTemporaryHome());
    afterEach(() => home.restore());

    it('is <tmpdir>/theia-cli-companion-<uid>, 0700, and the same for every caller of the process', () => {
        const dir = privateTmpDirectory();
        expect(dir).to.equal(preferred());
        expect(fs.lstatSync(dir).mode & 0o777).to.equal(0o700);
        expect(privateTmpDirectory()).to.equal(dir);
    });

    it('takes back its own directory, tightened, when it was left open', () => {
        fs.mkdirSync(preferred(), { mode: 0o777 });
        fs.chmodSync(preferred(), 0o777);
        expect(privateTmpDirectory()).to.equal(preferred());
        expect(fs.statSync(preferred()).mode & 0o777).to.equal(0o700);
    });

    it('never uses the predictable name when something else holds it: a link planted there', () => {
        const elsewhere = path.join(home.dir, 'attacker');
        fs.mkdirSync(elsewhere);
        fs.symlinkSync(elsewhere, preferred());
        const dir = privateTmpDirectory();
        expect(path.dirname(dir)).to.equal(process.env.TMPDIR);
        expect(path.basename(dir)).to.match(new RegExp(`^theia-cli-companion-${uid}-.{6}$`));
        expect(fs.lstatSync(dir).isDirectory()).to.equal(true);
        expect(fs.lstatSync(dir).mode & 0o777).to.equal(0o700);
        expect(fs.readdirSync(elsewhere)).to.deep.equal([]);
    });

    it('never uses the predictable name when another account created it', function (): void {
        if (uid !== 0) {
            // Needs chown to another uid. CI runs as root, where this never skips.
            this.skip();
        }
        fs.mkdirSync(preferred(), { mode: 0o777 });
        fs.chownSync(preferred(), 65534, 65534);
        const dir = privateTmpDirectory();
        expect(dir).to.not.equal(preferred());
        expect(fs.lstatSync(dir).uid).to.equal(0);
        expect(fs.lstatSync(dir).mode & 0o777).to.equal(0o700);
    });

    it('leaves a shared directory that anyone may rename things in (writable, not sticky) for the user\'s cache', () => {
        const unsafe = path.join(home.dir, 'open-tmp');
        fs.mkdirSync(unsafe);
        fs.chmodSync(unsafe, 0o777);
        process.env.TMPDIR = unsafe;
        const dir = privateTmpDirectory();
        expect(dir).to.equal(path.join(process.env.HOME!, '.cache', 'theia-cli-companion', 'tmp'));
        expect(fs.statSync(dir).mode & 0o777).to.equal(0o700);
        expect(fs.readdirSync(unsafe)).to.deep.equal([]);
    });

    it('uses a sticky world-writable directory (like /tmp) as it is', () => {
        const sticky = path.join(home.dir, 'sticky-tmp');
        fs.mkdirSync(sticky);
        fs.chmodSync(sticky, 0o1777);
        process.env.TMPDIR = sticky;
        expect(privateTmpDirectory()).to.equal(path.join(sticky, `theia-cli-companion-${uid}`));
    });
});
