import { Operation } from '../../../common/http/api-operation.js';
import { Controller, Get, Req, Res } from '@nestjs/common';
import { ApiOkResponse, ApiResponse, ApiTags } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { Public } from '../../../common/http/auth.decorators.js';
import { clientAddress } from '../../../common/http/auth-failure-limiter.js';
import { AppConfig } from '../../../config/app-config.js';
import type { PendingSignOn } from '../application/ports/identity-provider.js';
import { SsoService } from '../application/sso.service.js';
import { readCookie, setSessionCookie } from './session-cookie.js';

const PENDING_COOKIE = 'ccs_sso';
const CALLBACK_PATH = '/api/v1/sso/callback';

/**
 * Single sign-on over OpenID Connect (docs/access.md): the console's button goes to `login`, the
 * provider sends the browser back to `callback`, which signs the person in as a password would.
 */
@ApiTags('sessions')
@Controller('api/v1/sso')
export class SsoController {
  constructor(
    private readonly sso: SsoService,
    private readonly config: AppConfig,
  ) {}

  @Get()
  @Public()
  @Operation(
    'sso_api_v1_sso_get',
    'Single sign-on',
    'Whether single sign-on is configured, and where the console sends the browser.',
  )
  @ApiOkResponse({
    schema: {
      properties: {
        enabled: { type: 'boolean' },
        login_url: { type: 'string', nullable: true },
      },
    },
  })
  info() {
    return { enabled: this.sso.enabled, login_url: this.sso.enabled ? '/api/v1/sso/login' : null };
  }

  @Get('login')
  @Public()
  @Operation(
    'sso_login_api_v1_sso_login_get',
    'Sign in with the identity provider',
    'Redirects the browser to the identity provider (404 when SSO is not configured).',
  )
  @ApiResponse({ status: 302, description: 'To the identity provider' })
  @ApiResponse({ status: 404, description: 'Single sign-on is not configured' })
  async login(@Req() req: Request, @Res() res: Response) {
    const { url, pending } = await this.sso.start(this.baseUrl(req) + CALLBACK_PATH);
    // Lax, not Strict: the provider's redirect back is a navigation from its site.
    res.append(
      'Set-Cookie',
      `${PENDING_COOKIE}=${Buffer.from(JSON.stringify(pending)).toString('base64url')}; ` +
        'Path=/api/v1/sso; HttpOnly; Secure; SameSite=Lax; Max-Age=600',
    );
    res.redirect(302, url);
  }

  @Get('callback')
  @Public()
  @Operation(
    'sso_callback_api_v1_sso_callback_get',
    'Return from the identity provider',
    'Signs the person in (the session cookie, as `POST /api/v1/sessions`) and redirects to the ' +
      'console; 401 when the provider refused or the answer does not verify, 403 when their groups ' +
      'give no role here.',
  )
  @ApiResponse({ status: 302, description: 'To the console, signed in' })
  @ApiResponse({ status: 404, description: 'Single sign-on is not configured' })
  async callback(@Req() req: Request, @Res() res: Response) {
    const { token } = await this.sso.finish(
      this.baseUrl(req) + req.originalUrl,
      pendingFrom(readCookie(req, PENDING_COOKIE)),
      clientAddress(req),
    );
    res.append(
      'Set-Cookie',
      `${PENDING_COOKIE}=; Path=/api/v1/sso; HttpOnly; Secure; SameSite=Lax; Max-Age=0`,
    );
    setSessionCookie(res, token);
    res.redirect(302, '/console/');
  }

  private baseUrl(req: Request): string {
    return (this.config.get('PUBLIC_BASE_URL') ?? `${req.protocol}://${req.get('host')}`).replace(
      /\/$/,
      '',
    );
  }
}

function pendingFrom(raw: string | undefined): PendingSignOn | null {
  if (!raw) return null;
  try {
    const value = JSON.parse(Buffer.from(raw, 'base64url').toString('utf8')) as PendingSignOn;
    return typeof value.state === 'string' &&
      typeof value.nonce === 'string' &&
      typeof value.codeVerifier === 'string'
      ? value
      : null;
  } catch {
    return null;
  }
}
