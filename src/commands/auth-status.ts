/**
 * `petstore auth status`: the selected environment, its base URL and whether
 * a key is set and where it comes from. Never prints the key. Exits 4 when no
 * key is set.
 */
import type { Context } from '../context.js';
import { missingApiKey } from '../settings.js';
import { renderJson } from '../render.js';

export default async function status(ctx: Context): Promise<void> {
  const envName = ctx.envName();
  const baseUrl = await ctx.baseUrl();
  const apiKey = await ctx.apiKey();
  if (ctx.options.json) {
    renderJson(ctx.out, {
      environment: envName.value,
      environmentSource: envName.source,
      baseUrl: baseUrl?.value.href ?? null,
      baseUrlSource: baseUrl?.source ?? null,
      apiKeySet: apiKey !== undefined,
      apiKeySource: apiKey?.source ?? null,
    });
  } else {
    const lines = [
      `Environment: ${envName.value} (${envName.source === 'default' ? 'default' : `from ${envName.origin}`})`,
      `Base URL:    ${baseUrl ? `${baseUrl.value.href} (from ${baseUrl.origin})` : 'not configured'}`,
      `API key:     ${apiKey ? `set (from ${apiKey.origin})` : 'not set'}`,
    ];
    ctx.out.write(`${lines.join('\n')}\n`);
  }
  if (!apiKey) throw missingApiKey(envName.value);
}
