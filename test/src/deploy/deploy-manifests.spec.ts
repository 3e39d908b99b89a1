import { expect } from 'chai';
import { coderTemplateProblems, parseTerraform, TerraformJson } from './coder-template';
import { CustomResourceDefinition, customResourceValidator, specCelRules, storageVersion } from './crd-schema';
import { browserAppDependencies, copyOf, IMAGE, pinnedVersions, readDeployJson, readDeployText, readDeployYaml, readDeployYamlDocuments, vscodeExtensionId } from './deploy-files';
import { optionVariable, readInstallScript } from './feature-install-script';
import { schemaValidator, Validator } from './schema-validator';

interface Metadata {
    name: string;
    namespace?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
}
interface Resource<Spec> {
    apiVersion: string;
    kind: string;
    metadata: Metadata;
    spec: Spec;
}
interface AppDefinitionSpec {
    [field: string]: unknown;
    name?: string;
    image?: string;
    uid?: unknown;
    port?: number;
    minInstances: number;
    maxInstances: number;
    requestsCpu: string;
    requestsMemory: string;
    limitsCpu: string;
    limitsMemory: string;
    mountPath?: string;
    monitor?: { port: number; activityTracker?: { timeoutAfter: number; notifyAfter: number } };
}
interface SessionSpec {
    [field: string]: unknown;
    appDefinition: string;
    user?: string;
    envVarsFromSecrets?: unknown;
}
interface Secret {
    metadata: Metadata;
    stringData: Record<string, string>;
}
interface DevfileContainer {
    image?: string;
    command?: string[];
    args?: string[];
    cpuRequest: string;
    memoryRequest: string;
    cpuLimit: string;
    memoryLimit: string;
    env: { name: string; value: string }[];
}
interface Devfile {
    schemaVersion: string;
    components: { name: string; container?: DevfileContainer; [type: string]: unknown }[];
    commands: { id: string; exec: { component: string; commandLine: string } }[];
}
interface AiToolRegistry {
    providers: { id: string }[];
    tools: { providerId: string; tag: string; binary: string; injectorImage?: string; envVarName?: string; pattern: string }[];
    defaultAiProviders?: string[];
}
interface FeatureOption {
    type: string;
    default: string;
    proposals?: string[];
}
interface Feature {
    [field: string]: unknown;
    id: string;
    version?: string;
    options: Record<string, FeatureOption>;
    customizations: { vscode: { extensions: string[] } };
    installsAfter: string[];
}

/** The CLIs the feature installs and the image ships, by the name the feature's `clis` option takes, with their npm packages. */
const CLIS: Record<string, string> = {
    'gemini': '@google/gemini-cli',
    'qwen': '@qwen-code/qwen-code',
    'claude': '@anthropic-ai/claude-code',
    'claude-agent-acp': '@agentclientprotocol/claude-agent-acp',
    'codex-acp': '@agentclientprotocol/codex-acp',
    'opencode': 'opencode-ai',
    'copilot': '@github/copilot'
};
const API_KEY_VARIABLES = ['GEMINI_API_KEY', 'ANTHROPIC_API_KEY', 'OPENAI_API_KEY'];
/** An example Secret's values are placeholders, never keys. */
const PLACEHOLDER = /^replace-with-your-[a-z]+-api-key$/;
const FEATURE_DIR = 'devcontainer-feature/src/theia-cli-companion';

const appDefinitionCrd = readDeployYaml<CustomResourceDefinition>('theia-cloud/schema/appdefinition-spec-resource.yaml');
const sessionCrd = readDeployYaml<CustomResourceDefinition>('theia-cloud/schema/session-spec-resource.yaml');
const appDefinition = readDeployYaml<Resource<AppDefinitionSpec>>('theia-cloud/app-definition.yaml');
const session = readDeployYaml<Resource<SessionSpec>>('theia-cloud/session.yaml');
const theiaCloudSecret = readDeployYaml<Secret>('theia-cloud/secret.example.yaml');
const devfile = readDeployYaml<Devfile>('che/devfile.yaml');
const registryConfigMap = readDeployYaml<{ metadata: Metadata; data: Record<string, string> }>('che/ai-tool-registry.yaml');
const registry = JSON.parse(registryConfigMap.data['registry.json']) as AiToolRegistry;
const cheSecrets = readDeployYamlDocuments<Secret>('che/api-keys.secret.example.yaml');
const feature = readDeployJson<Feature>(`${FEATURE_DIR}/devcontainer-feature.json`);
/** The tooling container: the first container component, where Che runs che-code (empty when there is none, so that checks fail by name). */
const toolsContainer: DevfileContainer = devfile.components.find(component => component.container)?.container
    ?? { cpuRequest: '', memoryRequest: '', cpuLimit: '', memoryLimit: '', env: [] };

describe('Deploy manifests (deploy/): each valid against its platform\'s schema, a broken copy refused, all agreeing with the image', () => {
    describe('Theia Cloud: AppDefinition and Session against the CRDs of theia-cloud-helm', () => {
        let validateAppDefinition: Validator;
        let validateSession: Validator;

        before(() => {
            validateAppDefinition = customResourceValidator(appDefinitionCrd);
            validateSession = customResourceValidator(sessionCrd);
        });

        it('vendors the CRDs rendered, with no helm directive left', () => {
            for (const file of ['appdefinition-spec-resource.yaml', 'session-spec-resource.yaml']) {
                expect(readDeployText(`theia-cloud/schema/${file}`), file).not.to.include('{{');
            }
        });

        it('writes the AppDefinition in its CRD\'s storage version (v1beta10) and it validates', () => {
            expect(storageVersion(appDefinitionCrd).name).to.equal('v1beta10');
            expect(validateAppDefinition(appDefinition)).to.deep.equal([]);
        });

        it('holds the CRD\'s one CEL rule, which no JSON Schema validator runs: minInstances ≤ maxInstances', () => {
            expect(specCelRules(appDefinitionCrd)).to.deep.equal([
                { rule: 'self.minInstances <= self.maxInstances', message: 'minInstances should be less or equal than maxInstances.' }
            ]);
            expect(appDefinition.spec.minInstances).to.be.at.most(appDefinition.spec.maxInstances);
        });

        it('refuses a broken AppDefinition and names the field: no image, uid as a string, a misspelt field, an old apiVersion', () => {
            const noImage = copyOf(appDefinition);
            delete noImage.spec.image;
            expect(validateAppDefinition(noImage)).to.include('/spec: must have required property \'image\'');
            const uidAsString = copyOf(appDefinition);
            uidAsString.spec.uid = '101';
            expect(validateAppDefinition(uidAsString)).to.include('/spec/uid: must be integer');
            // The API server would drop it without a word (pruning); the operator would then pull with no secret.
            const misspelt = copyOf(appDefinition);
            misspelt.spec.imagePullSecret = 'registry-credentials';
            expect(validateAppDefinition(misspelt)).to.include('/spec: must NOT have additional properties \'imagePullSecret\'');
            const oldVersion = copyOf(appDefinition);
            oldVersion.apiVersion = 'theia.cloud/v1beta9';
            expect(validateAppDefinition(oldVersion)).to.include('/apiVersion: must be equal to constant "theia.cloud/v1beta10"');
        });

        it('starts no pod ahead of users (minInstances 0): Theia Cloud gives eagerly started pods no envVarsFromSecrets', () => {
            expect(appDefinition.spec.minInstances).to.equal(0);
        });

        it('needs nothing more in the image: the app has no webviews or mini-browser to point at the session\'s host', () => {
            // Theia Cloud's demo images set THEIA_WEBVIEW_ENDPOINT and THEIA_MINI_BROWSER_HOST_PATTERN for these two.
            expect(browserAppDependencies()).not.to.include('@theia/plugin-ext');
            expect(browserAppDependencies()).not.to.include('@theia/mini-browser');
        });

        it('gives the operator\'s activity tracker its monitor block, and a working day while no monitor extension reports activity', () => {
            const tracker = appDefinition.spec.monitor?.activityTracker;
            expect(tracker, 'the operator reads it for every session while its tracker is on').not.to.equal(undefined);
            if (!browserAppDependencies().includes('@eclipse-theiacloud/monitor-theia')) {
                // Without the extension the tracker counts from the session's start: a short limit ends sessions in use.
                expect(tracker!.timeoutAfter).to.be.at.least(8 * 60);
            }
            expect(tracker!.notifyAfter).to.be.below(tracker!.timeoutAfter);
        });

        it('writes the Session in its CRD\'s storage version (v1beta8) for the AppDefinition, and it validates', () => {
            expect(storageVersion(sessionCrd).name).to.equal('v1beta8');
            expect(validateSession(session)).to.deep.equal([]);
            expect(session.spec.appDefinition).to.equal(appDefinition.spec.name);
            expect(appDefinition.metadata.name).to.equal(appDefinition.spec.name);
        });

        it('refuses a broken Session and names the field: no user, envVarsFromSecrets as one string', () => {
            const noUser = copyOf(session);
            delete noUser.spec.user;
            expect(validateSession(noUser)).to.include('/spec: must have required property \'user\'');
            const oneString = copyOf(session);
            oneString.spec.envVarsFromSecrets = theiaCloudSecret.metadata.name;
            expect(validateSession(oneString)).to.include('/spec/envVarsFromSecrets: must be array');
        });

        it('takes the three API keys from the Secret the Session names, whose example holds placeholders only', () => {
            expect(session.spec.envVarsFromSecrets).to.deep.equal([theiaCloudSecret.metadata.name]);
            expect(Object.keys(theiaCloudSecret.stringData).sort()).to.deep.equal([...API_KEY_VARIABLES].sort());
            for (const value of Object.values(theiaCloudSecret.stringData)) {
                expect(value).to.match(PLACEHOLDER);
            }
        });
    });

    describe('Eclipse Che: the devfile against devfile/api\'s 2.3.0 schema, the AI tool registry against che-dashboard\'s types', () => {
        let validateDevfile: Validator;
        let validateRegistry: Validator;

        before(() => {
            validateDevfile = schemaValidator(readDeployJson<object>('che/schema/devfile.json'));
            validateRegistry = schemaValidator(readDeployJson<object>('che/schema/ai-tool-registry.schema.json'));
        });

        it('writes a devfile 2.3.0 that validates', () => {
            expect(readDeployJson<{ title: string }>('che/schema/devfile.json').title).to.equal('Devfile schema - Version 2.3.0');
            expect(devfile.schemaVersion).to.equal('2.3.0');
            expect(validateDevfile(devfile)).to.deep.equal([]);
        });

        it('refuses a broken devfile and names the field: a component of an unknown type, a container with no image', () => {
            const unknownType = copyOf(devfile);
            unknownType.components[0] = { name: 'tools', helm: { chart: 'theia-cli-companion' } };
            expect(validateDevfile(unknownType)).to.include('/components/0: must NOT have additional properties \'helm\'');
            const noImage = copyOf(devfile);
            delete noImage.components[0].container!.image;
            expect(validateDevfile(noImage)).to.include('/components/0/container: must have required property \'image\'');
        });

        it('makes che-code install the .vsix, keeps the tooling container alive, and runs only CLIs the image has', () => {
            expect(toolsContainer.env).to.deep.include({ name: 'DEFAULT_EXTENSIONS', value: IMAGE.vsix });
            // args, not command: the image's entrypoint (under tini) stays PID 1's child and runs them.
            expect(toolsContainer.command).to.equal(undefined);
            expect(toolsContainer.args).to.deep.equal(['sleep', 'infinity']);
            expect(toolsContainer.env).to.deep.include({ name: 'HOME', value: IMAGE.home });
            for (const command of devfile.commands) {
                expect(devfile.components.map(component => component.name), command.id).to.include(command.exec.component);
                expect(Object.keys(CLIS), command.id).to.include(command.exec.commandLine);
            }
        });

        it('puts the registry where the dashboard looks: a ConfigMap labelled as it selects, whose registry.json validates', () => {
            expect(registryConfigMap.metadata.name).to.equal('ai-tool-registry');
            expect(registryConfigMap.metadata.labels).to.deep.equal({ 'app.kubernetes.io/component': 'ai-tool-registry', 'app.kubernetes.io/part-of': 'che.eclipse.org' });
            expect(validateRegistry(registry)).to.deep.equal([]);
        });

        it('refuses a broken registry and names the field: an unknown injection pattern, a tool with no injector image', () => {
            const unknownPattern = copyOf(registry);
            unknownPattern.tools[0].pattern = 'copy';
            expect(validateRegistry(unknownPattern)).to.include('/tools/0/pattern: must be equal to one of the allowed values ["init","bundle"]');
            const noInjector = copyOf(registry);
            delete noInjector.tools[1].injectorImage;
            expect(validateRegistry(noInjector)).to.include('/tools/1: must have required property \'injectorImage\'');
        });

        it('offers each tool at the version the tests pin, from an injector image of that tag and a name of its own', () => {
            const pinned = pinnedVersions();
            const providers = registry.providers.map(provider => provider.id);
            for (const tool of registry.tools) {
                expect(providers, tool.providerId).to.include(tool.providerId);
                expect(tool.tag, tool.binary).to.equal(pinned[CLIS[tool.binary]]);
                expect(tool.injectorImage, tool.binary).to.match(new RegExp(`:${tool.tag.replace(/\./g, '\\.')}$`));
            }
            // The dashboard names a tool's init container and volume folder after the last segment of its image.
            const slugs = registry.tools.map(tool => tool.injectorImage!.split(':')[0].split('/').pop());
            expect(new Set(slugs).size).to.equal(slugs.length);
            for (const provider of registry.defaultAiProviders ?? []) {
                expect(providers).to.include(provider);
            }
        });

        it('gives each API key a Secret shaped as the dashboard makes it, mounted as environment variables, with placeholders only', () => {
            const toolsByKey = new Map(registry.tools.map(tool => [tool.envVarName, tool]));
            expect(cheSecrets.map(secret => Object.keys(secret.stringData)).flat().sort()).to.deep.equal([...API_KEY_VARIABLES].sort());
            for (const secret of cheSecrets) {
                const [variable, value] = Object.entries(secret.stringData)[0];
                expect(secret.metadata.name).to.equal(`ai-provider-${variable.toLowerCase().replace(/_/g, '-')}`);
                expect(secret.metadata.labels).to.deep.include({ 'controller.devfile.io/mount-to-devworkspace': 'true', 'controller.devfile.io/watch-secret': 'true' });
                expect(secret.metadata.annotations).to.deep.equal({ 'controller.devfile.io/mount-as': 'env' });
                expect(secret.metadata.labels?.['che.eclipse.org/ai-provider-id']).to.equal(toolsByKey.get(variable)?.providerId.replace(/[^A-Za-z0-9._-]/g, '-'));
                expect(value).to.match(PLACEHOLDER);
            }
        });
    });

    describe('Dev container feature: devcontainer-feature.json against devcontainers/spec\'s schema, and its install.sh', () => {
        let validateFeature: Validator;
        const installScript = readInstallScript(readDeployText(`${FEATURE_DIR}/install.sh`));

        before(() => {
            validateFeature = schemaValidator(readDeployJson<object>('devcontainer-feature/schema/devContainerFeature.schema.json'));
        });

        it('validates, with the id of its folder (the spec requires it)', () => {
            expect(validateFeature(feature)).to.deep.equal([]);
            expect(feature.id).to.equal(FEATURE_DIR.split('/').pop());
        });

        it('refuses a broken feature and names the field: an option of type "list", no version', () => {
            const listOption = copyOf(feature);
            listOption.options.clis.type = 'list';
            expect(validateFeature(listOption)).to.include('/options/clis/type: must be equal to constant "string"');
            const noVersion = copyOf(feature);
            delete noVersion.version;
            expect(validateFeature(noVersion)).to.include('/: must have required property \'version\'');
        });

        it('installs each CLI at the version the tests pin, by default, in the JSON and in install.sh run by hand', () => {
            const pinned = pinnedVersions();
            expect(installScript.knownClis).to.deep.equal(Object.keys(CLIS));
            for (const [cli, npmPackage] of Object.entries(CLIS)) {
                const optionId = `${cli.replace(/-(\w)/g, (_dash, letter: string) => letter.toUpperCase())}Version`;
                expect(feature.options[optionId]?.default, optionId).to.equal(pinned[npmPackage]);
                expect(installScript.packages[cli], cli).to.deep.equal({ name: npmPackage, versionVariable: optionVariable(optionId) });
                expect(installScript.defaults[optionVariable(optionId)], optionId).to.equal(pinned[npmPackage]);
            }
            expect(installScript.defaults[optionVariable('clis')]).to.equal(feature.options.clis.default);
        });

        it('proposes only lists of known CLIs, names the companion\'s extension, and installs after the node feature', () => {
            for (const proposal of feature.options.clis.proposals ?? []) {
                for (const cli of proposal.split(',')) {
                    expect([...Object.keys(CLIS), 'all'], proposal).to.include(cli);
                }
            }
            expect(feature.customizations.vscode.extensions).to.deep.equal([vscodeExtensionId()]);
            expect(feature.installsAfter).to.deep.equal(['ghcr.io/devcontainers/features/node']);
        });
    });

    describe('Coder: the template parsed by HashiCorp\'s HCL parser', () => {
        const text = readDeployText('coder/main.tf');
        let template: TerraformJson;

        before(async () => {
            template = await parseTerraform('main.tf', text);
        });

        it('runs the image in a pod with the agent, the IDE as an app on the image\'s port, the API keys from a Secret', () => {
            expect(coderTemplateProblems(template, IMAGE)).to.deep.equal([]);
        });

        it('refuses a broken template and names the field: the app on another port, the pod as another user', () => {
            const broken = copyOf(template);
            broken.resource!.coder_app.theia[0].url = 'http://localhost:8080';
            broken.locals![0].uid = 1000;
            expect(coderTemplateProblems(broken, IMAGE)).to.deep.equal([
                'resource.coder_app.theia.url: is "http://localhost:8080", not "http://localhost:3000"',
                'resource.kubernetes_pod_v1.main.spec.security_context.run_as_user: is 1000, not 101'
            ]);
        });

        it('refuses a template Terraform could not parse, with the line', async () => {
            const unclosed = text.replace(/\n}\s*$/, '\n');
            const refusal = await parseTerraform('main.tf', unclosed).then(() => undefined, (error: Error) => error.message);
            expect(refusal).to.match(/main\.tf:\d+/);
        });
    });

    describe('Across platforms: one image, one set of numbers', () => {
        let template: TerraformJson;

        before(async () => {
            template = await parseTerraform('main.tf', readDeployText('coder/main.tf'));
        });

        it('runs the same image everywhere, the one deploy/image.json names, as its uid, on its port, in its workspace', () => {
            const reference = appDefinition.spec.image!;
            expect(reference).to.match(new RegExp(`/${IMAGE.name}:${IMAGE.tag.replace(/\./g, '\\.')}$`));
            expect(toolsContainer.image, 'devfile').to.equal(reference);
            expect(template.variable?.image[0].default, 'Coder').to.equal(reference);
            expect(appDefinition.spec.uid).to.equal(IMAGE.uid);
            expect(appDefinition.spec.port).to.equal(IMAGE.port);
            // Theia Cloud's monitor extension runs in Theia's backend, so it answers on the IDE's port.
            expect(appDefinition.spec.monitor?.port).to.equal(IMAGE.port);
            expect(appDefinition.spec.mountPath).to.equal(IMAGE.workspace);
        });

        it('asks for the same CPU and memory on every platform', () => {
            const spec = appDefinition.spec;
            const theiaCloud = { requests: { cpu: spec.requestsCpu, memory: spec.requestsMemory }, limits: { cpu: spec.limitsCpu, memory: spec.limitsMemory } };
            const che = {
                requests: { cpu: toolsContainer.cpuRequest, memory: toolsContainer.memoryRequest },
                limits: { cpu: toolsContainer.cpuLimit, memory: toolsContainer.memoryLimit }
            };
            const pod = template.resource!.kubernetes_pod_v1.main[0] as { spec: { container: { resources: { requests: object; limits: object }[] }[] }[] };
            const { requests, limits } = pod.spec[0].container[0].resources[0];
            expect(che, 'Che').to.deep.equal(theiaCloud);
            expect({ requests, limits }, 'Coder').to.deep.equal(theiaCloud);
        });
    });
});
