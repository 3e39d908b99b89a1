import { ShellTerminalServerProxy, IShellTerminalServerOptions } from '@theia/terminal/lib/common/shell-terminal-protocol';
import { TaskServer, TaskConfiguration } from '@theia/task/lib/common/task-protocol';

export type WindowEnvironmentProvider = () => Promise<Record<string, string>>;

/**
 * Wraps the window's shell terminal server proxy so every shell this window creates (New Terminal,
 * terminal profiles, restored terminals, extension terminals) gets the window's CLI variables.
 * The backend terminal server is shared by all windows and cannot tell them apart, so the
 * frontend, which knows its window, adds them. Variables the caller set explicitly win.
 */
export function injectTerminalEnvironment(proxy: ShellTerminalServerProxy, environment: WindowEnvironmentProvider): ShellTerminalServerProxy {
    return new Proxy(proxy, {
        get(target, property) {
            if (property === 'create') {
                return async (options: IShellTerminalServerOptions) => target.create({
                    ...options,
                    env: { ...await environment(), ...options.env }
                });
            }
            return Reflect.get(target, property);
        }
    });
}

/** The same for tasks, which the backend task server spawns from the task configuration. */
export function injectTaskEnvironment(taskServer: TaskServer, environment: WindowEnvironmentProvider): TaskServer {
    return new Proxy(taskServer, {
        get(target, property) {
            if (property === 'run') {
                return async (task: TaskConfiguration, ctx?: string, option?: unknown) =>
                    target.run(await withEnvironment(task, environment), ctx, option as Parameters<TaskServer['run']>[2]);
            }
            return Reflect.get(target, property);
        }
    });
}

async function withEnvironment(task: TaskConfiguration, environment: WindowEnvironmentProvider): Promise<TaskConfiguration> {
    if (task.type !== 'shell' && task.type !== 'process') {
        return task;
    }
    const options = (task.options ?? {}) as { env?: Record<string, string | undefined> };
    return { ...task, options: { ...options, env: { ...await environment(), ...options.env } } };
}
