import { Injectable } from '@nestjs/common';

/**
 * The routes the app serves, so that a known path with the wrong method answers 405 (Express alone
 * only knows 404). Filled once at startup from the router; see `configureApp`.
 */
@Injectable()
export class RouteTable {
  private routes: { pattern: RegExp; methods: Set<string> }[] = [];

  register(path: string, method: string): void {
    const pattern = new RegExp(
      '^' +
        path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\\\{[^}]+\\\}|:[A-Za-z_]+/g, '[^/]+') +
        '/?$',
    );
    const existing = this.routes.find((r) => r.pattern.source === pattern.source);
    if (existing) existing.methods.add(method.toUpperCase());
    else this.routes.push({ pattern, methods: new Set([method.toUpperCase()]) });
  }

  allowedMethods(path: string): string[] {
    const methods = new Set<string>();
    for (const r of this.routes) if (r.pattern.test(path)) r.methods.forEach((m) => methods.add(m));
    return [...methods].sort();
  }
}
