import type { interfaces } from 'inversify';

/**
 * Every binding of one service id in a window's container, resolved on first use rather than at
 * injection: the window's graph has cycles through its endpoints and tools (an endpoint's sessions get
 * the tools, a diff tool reaches the endpoints' sessions). Bound per id with {@link bindContributions}
 * and injected as `@inject(Contributions) @named(id)`.
 */
export const Contributions = Symbol('Contributions');
export interface Contributions<T> {
    getContributions(): readonly T[];
}

export function bindContributions(bind: interfaces.Bind, id: symbol): void {
    bind(Contributions).toDynamicValue(({ container }) => {
        let resolved: readonly unknown[] | undefined;
        return { getContributions: () => resolved ??= container.isBound(id) ? container.getAll(id) : [] };
    }).inSingletonScope().whenTargetNamed(id);
}
