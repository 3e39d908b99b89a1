import { parse } from '@cdktf/hcl2json';
import { ImageFacts } from './deploy-files';

/** A block as hcl2json gives it: every block is a list of bodies, expressions stay `${…}` strings. */
type Body = Record<string, unknown>;

/** Terraform's configuration as JSON (HashiCorp's own HCL parser, compiled to WebAssembly, in @cdktf/hcl2json). */
export interface TerraformJson {
    readonly variable?: Record<string, Body[]>;
    readonly locals?: Body[];
    readonly resource?: Record<string, Record<string, Body[]>>;
}

/** Parses a template; rejects what Terraform would not parse, with the line. */
export async function parseTerraform(file: string, text: string): Promise<TerraformJson> {
    return await parse(file, text) as TerraformJson;
}

/** What a Coder template for our image needs, as problems that name the field; none when it is whole. */
export function coderTemplateProblems(template: TerraformJson, image: ImageFacts): string[] {
    const problems: string[] = [];
    const expect = (field: string, actual: unknown, wanted: unknown) => {
        if (JSON.stringify(actual) !== JSON.stringify(wanted)) {
            problems.push(`${field}: is ${JSON.stringify(actual)}, not ${JSON.stringify(wanted)}`);
        }
    };
    const resolve = localResolver(template);
    const agents = Object.keys(template.resource?.coder_agent ?? {});
    expect('resource.coder_agent', agents.length, 1);
    const agent = `coder_agent.${agents[0]}`;
    const [appName, app] = Object.entries(template.resource?.coder_app ?? {}).find(([, bodies]) => bodies[0].agent_id === `\${${agent}.id}`) ?? [];
    if (!app) {
        return [...problems, `resource.coder_app: none has agent_id = ${agent}.id`];
    }
    const field = `resource.coder_app.${appName}`;
    expect(`${field}.url`, resolve(app[0].url), `http://localhost:${image.port}`);
    expect(`${field}.subdomain`, app[0].subdomain, true);
    expect(`${field}.healthcheck.url`, resolve(first(app[0].healthcheck)?.url), `http://localhost:${image.port}/`);
    const imageDefault = String(first(template.variable?.image)?.default);
    if (!imageDefault.endsWith(`/${image.name}:${image.tag}`)) {
        problems.push(`variable.image.default: ${imageDefault} is not …/${image.name}:${image.tag}`);
    }
    return [...problems, ...podProblems(template, agent, image, resolve)];
}

function podProblems(template: TerraformJson, agent: string, image: ImageFacts, resolve: (value: unknown) => unknown): string[] {
    const pods = Object.entries(template.resource?.kubernetes_pod_v1 ?? {});
    if (pods.length !== 1) {
        return [`resource.kubernetes_pod_v1: ${pods.length} pods, not 1`];
    }
    const [name, [pod]] = pods[0];
    const spec = first(pod.spec) ?? {};
    const security = first(spec.security_context) ?? {};
    const container = first(spec.container) ?? {};
    const env = (container.env as Body[] | undefined) ?? [];
    const field = `resource.kubernetes_pod_v1.${name}.spec`;
    const wanted: [string, unknown, unknown][] = [
        [`${field}.security_context.run_as_user`, resolve(security.run_as_user), image.uid],
        [`${field}.security_context.run_as_group`, security.run_as_group, 0],
        [`${field}.security_context.fs_group`, security.fs_group, 0],
        [`${field}.container.image`, container.image, '${var.image}'],
        // args, not command: the image's entrypoint stays, and gives the agent a user and a home.
        [`${field}.container.args run the agent`, JSON.stringify(container.args), JSON.stringify(['sh', '-c', `\${${agent}.init_script}`])],
        [`${field}.container.command`, container.command, undefined],
        [`${field}.container.env CODER_AGENT_TOKEN`, env.find(variable => variable.name === 'CODER_AGENT_TOKEN')?.value, `\${${agent}.token}`],
        [`${field}.container.env_from.secret_ref (the API keys)`, typeof first(first(container.env_from)?.secret_ref)?.name, 'string'],
        [`${field}.container.volume_mount.mount_path`, first(container.volume_mount)?.mount_path, image.workspace]
    ];
    return wanted.filter(([, actual, expected]) => actual !== expected).map(([what, actual, expected]) => `${what}: is ${JSON.stringify(actual)}, not ${JSON.stringify(expected)}`);
}

/** `${local.port}` → the local's value (a whole-string reference keeps its type); anything else unchanged. */
function localResolver(template: TerraformJson): (value: unknown) => unknown {
    const locals: Body = Object.assign({}, ...(template.locals ?? []));
    return value => {
        if (typeof value !== 'string') {
            return value;
        }
        const whole = /^\$\{local\.(\w+)\}$/.exec(value);
        return whole ? locals[whole[1]] : value.replace(/\$\{local\.(\w+)\}/g, (reference, local: string) => local in locals ? String(locals[local]) : reference);
    };
}

function first(blocks: unknown): Body | undefined {
    return Array.isArray(blocks) ? blocks[0] as Body : undefined;
}
