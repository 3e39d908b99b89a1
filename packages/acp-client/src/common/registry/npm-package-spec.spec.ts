import { expect } from 'chai';
import { parseNpmPackageSpec } from './npm-package-spec';
import { isPypiPackageSpec } from './pypi-package-spec';

describe('parseNpmPackageSpec', () => {
    it('splits the registry\'s package specs into name and version', () => {
        expect(parseNpmPackageSpec('@google/gemini-cli@0.27.3')).to.deep.equal({ name: '@google/gemini-cli', version: '0.27.3' });
        expect(parseNpmPackageSpec('opencode-ai@1.1.53')).to.deep.equal({ name: 'opencode-ai', version: '1.1.53' });
        expect(parseNpmPackageSpec('@zed-industries/claude-code-acp')).to.deep.equal({ name: '@zed-industries/claude-code-acp' });
        expect(parseNpmPackageSpec('pkg@1.0.0-beta.1+build.5')).to.deep.equal({ name: 'pkg', version: '1.0.0-beta.1+build.5' });
    });

    it('refuses whatever is not a plain package of the npm registry', () => {
        for (const spec of ['', '@', '@scope', '@scope/', '-g', '--registry=https://evil', 'git+https://x/y.git', 'file:../x', './x', '/abs', 'https://x/y.tgz',
            'Upper', 'a b', 'pkg@', 'pkg@^1.0.0', 'pkg@1.0.0 --global', '.hidden', '_under', 'pkg@-1', 'a'.repeat(215)]) {
            expect(parseNpmPackageSpec(spec), spec).to.equal(undefined);
        }
    });
});

describe('isPypiPackageSpec', () => {
    it('accepts a PyPI name with an optional version as uvx takes it', () => {
        for (const spec of ['minion-code', 'minion-code@0.1.5', 'fast_agent.mcp==0.2.1', 'x>=1.2', 'A1']) {
            expect(isPypiPackageSpec(spec), spec).to.equal(true);
        }
    });

    it('refuses options, paths and URLs', () => {
        for (const spec of ['', '-x', '--with=evil', './pkg', 'git+https://x', 'pkg==', 'pkg ; rm', 'pkg-', 'pkg@@1']) {
            expect(isPypiPackageSpec(spec), spec).to.equal(false);
        }
    });
});
