/** `petstore auth logout`: removes the stored key of the selected environment. */
import type { Context } from '../context.js';

export default async function logout(ctx: Context): Promise<void> {
  const envName = ctx.envName().value;
  const store = await ctx.store();
  if (store.environment(envName).apiKey === undefined) {
    ctx.warn(`No key stored for ${envName}; nothing to do.`);
  } else {
    store.setField(envName, 'apiKey', undefined);
    ctx.warn(`Logged out of ${envName}: key removed from ${store.path}`);
  }
  if (ctx.env.PETSTORE_API_KEY) ctx.warn('note: PETSTORE_API_KEY is still set in this shell');
}
