import { expect } from 'chai';
import { AcpRegistryAgent, AcpRegistryAgentSchema } from './acp-registry-schema';
import { chooseAcpDistribution } from './choose-acp-distribution';

const agent = (distribution: object): AcpRegistryAgent => AcpRegistryAgentSchema.parse({ id: 'agent', name: 'Agent', version: '1.0.0', description: '', distribution });
const linux = { archive: 'https://example.com/a-linux.tar.gz', cmd: './a' };

describe('chooseAcpDistribution', () => {
    it('prefers the build for this platform, then npx, then uvx', () => {
        const all = agent({ binary: { 'linux-x86_64': linux }, npx: { package: 'a@1.0.0' }, uvx: { package: 'a' } });
        expect(chooseAcpDistribution(all, 'linux-x86_64')).to.deep.include({ kind: 'binary', platform: 'linux-x86_64' });
        expect(chooseAcpDistribution(all, 'darwin-aarch64')).to.deep.include({ kind: 'npx' });
        expect(chooseAcpDistribution(all, undefined)).to.deep.include({ kind: 'npx' });
        expect(chooseAcpDistribution(agent({ uvx: { package: 'a' } }), 'linux-x86_64')).to.deep.include({ kind: 'uvx' });
        expect(chooseAcpDistribution(all, 'linux-x86_64', 'uvx')).to.deep.include({ kind: 'uvx' });
    });

    it('says why there is no way to install it here', () => {
        const binaryOnly = agent({ binary: { 'darwin-aarch64': linux, 'windows-x86_64': linux } });
        expect(chooseAcpDistribution(binaryOnly, 'linux-x86_64'))
            .to.equal('Agent "agent" has no build for linux-x86_64 (its builds are for darwin-aarch64, windows-x86_64), and no npx or uvx package');
        expect(chooseAcpDistribution(binaryOnly, undefined)).to.match(/no build for this platform \(the registry publishes no builds for it\)/);
        expect(chooseAcpDistribution(binaryOnly, 'darwin-aarch64', 'npx')).to.equal('Agent "agent" is not distributed as npx; it offers binary');
        expect(chooseAcpDistribution(agent({ binary: { 'darwin-aarch64': linux }, npx: { package: 'a' } }), 'linux-x86_64', 'binary'))
            .to.equal('Agent "agent" has no build for linux-x86_64 (its builds are for darwin-aarch64)');
    });
});
