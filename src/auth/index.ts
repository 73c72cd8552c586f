import type { Face } from '../face.js';
import accountRoutes from './account-routes.js';
import { loginLimitsOf } from './login.js';
import oauthRoutes from './oauth.js';
import authRoutes from './routes.js';

/** Logins and tokens (src/auth/routes.ts) and the account flows the web front end drives (account-routes.ts). */
export const authFace: Face = {
  tags: [{ name: 'Authentication', description: 'Tokens for the `Authorization: JWT <token>` header' }],
  async routes(app, { config }) {
    const limits = loginLimitsOf(config);
    await app.register(authRoutes, {
      lifetimes: { access: config.JWT_EXPIRES_IN, refresh: config.JWT_REFRESH_EXPIRES_IN },
      limits,
    });
    await app.register(accountRoutes, { limits });
    await app.register(oauthRoutes);
  },
};
