import { expect } from 'chai';
import { registryPlatformOf } from './registry-platform';

describe('registryPlatformOf', () => {
    it('names Node\'s platforms as the registry does', () => {
        expect(registryPlatformOf('linux', 'x64')).to.equal('linux-x86_64');
        expect(registryPlatformOf('linux', 'arm64')).to.equal('linux-aarch64');
        expect(registryPlatformOf('darwin', 'arm64')).to.equal('darwin-aarch64');
        expect(registryPlatformOf('darwin', 'x64')).to.equal('darwin-x86_64');
        expect(registryPlatformOf('win32', 'x64')).to.equal('windows-x86_64');
        expect(registryPlatformOf('win32', 'arm64')).to.equal('windows-aarch64');
    });

    it('has no key where the registry publishes no builds', () => {
        expect(registryPlatformOf('linux', 'ia32')).to.equal(undefined);
        expect(registryPlatformOf('freebsd', 'x64')).to.equal(undefined);
        expect(registryPlatformOf('linux', 'arm')).to.equal(undefined);
    });
});
