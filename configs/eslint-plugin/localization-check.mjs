/**
 * Theia's nls rule for this repository: every `nls.localize(key, text)` and
 * `Command.toLocalizedCommand(command, key, categoryKey)` names a literal key in the package's
 * namespace (`theia-cli-companion/<area>/<name>`, the area given per package folder in the rule's
 * `areas` option), and one key has one default text across all the files of a lint run, so a
 * translation never shows the wrong string.
 */
const KEY = /^theia-cli-companion\/[a-z][a-z-]*\/[A-Za-z][A-Za-z0-9]*$/;

/** key → the first default text seen for it, and where (module state: one lint run). */
const defaults = new Map();

function literal(node) {
    if (node?.type === 'Literal' && typeof node.value === 'string') {
        return node.value;
    }
    if (node?.type === 'TemplateLiteral' && node.expressions.length === 0) {
        return node.quasis[0].value.cooked;
    }
    return undefined;
}

function isCall(node, object, method) {
    const callee = node.callee;
    return callee.type === 'MemberExpression' && !callee.computed && callee.property.name === method
        && callee.object.type === 'Identifier' && callee.object.name === object;
}

export default {
    meta: {
        type: 'problem',
        docs: { description: 'nls keys are literal, namespaced, and have one default text each' },
        schema: [{ type: 'object', properties: { areas: { type: 'object', additionalProperties: { type: 'string' } } }, additionalProperties: false }]
    },
    create(context) {
        const areas = context.options[0]?.areas ?? {};
        const packageName = /[\\/]packages[\\/]([^\\/]+)[\\/]/.exec(context.filename)?.[1];
        const area = packageName !== undefined && Object.hasOwn(areas, packageName) ? areas[packageName] : undefined;
        function checkKey(node, keyNode, text) {
            const key = literal(keyNode);
            if (key === undefined) {
                context.report({ node: keyNode ?? node, message: 'The nls key must be a string literal' });
                return;
            }
            if (!KEY.test(key)) {
                context.report({ node: keyNode, message: `The nls key ${JSON.stringify(key)} is not of the form theia-cli-companion/<area>/<name>` });
                return;
            }
            if (area !== undefined && !key.startsWith(`theia-cli-companion/${area}/`)) {
                context.report({ node: keyNode, message: `The nls key ${key} is not in this package's area, theia-cli-companion/${area}/` });
                return;
            }
            if (text === undefined) {
                return;
            }
            const seen = defaults.get(key);
            if (!seen) {
                defaults.set(key, { text, where: `${context.filename}:${keyNode.loc.start.line}` });
            } else if (seen.text !== text) {
                context.report({ node: keyNode, message: `The nls key ${key} already has the default text ${JSON.stringify(seen.text)} (${seen.where})` });
            }
        }
        return {
            CallExpression(node) {
                if (isCall(node, 'nls', 'localize')) {
                    const text = literal(node.arguments[1]);
                    if (text === undefined) {
                        context.report({ node: node.arguments[1] ?? node, message: 'The default text of nls.localize must be a string literal' });
                    }
                    checkKey(node, node.arguments[0], text);
                } else if (isCall(node, 'Command', 'toLocalizedCommand')) {
                    const command = node.arguments[0];
                    const property = name => command?.type === 'ObjectExpression'
                        ? literal(command.properties.find(candidate => candidate.key?.name === name)?.value) : undefined;
                    checkKey(node, node.arguments[1], property('label'));
                    // The category key is usually a shared constant; a literal one is checked like the others.
                    if (literal(node.arguments[2]) !== undefined) {
                        checkKey(node, node.arguments[2], property('category'));
                    }
                }
            }
        };
    }
};
