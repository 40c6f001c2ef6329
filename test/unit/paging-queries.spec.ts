import { PydanticValidationPipe } from '../../src/common/validation/pydantic-validation.pipe.js';
import { RequestValidationError } from '../../src/common/validation/request-validation.error.js';
import {
  ListBlacklistNumbersQueryDto,
  ListBlacklistsQueryDto,
} from '../../src/modules/blacklist/api/dto/blacklist.dto.js';
import { ListCallLogsQueryDto } from '../../src/modules/call-log/api/dto/call-log.dto.js';
import { ListCampaignsQueryDto } from '../../src/modules/campaign/api/dto/campaign.dto.js';
import { ListTargetsQueryDto } from '../../src/modules/target/api/dto/list-targets.query.dto.js';
import { ListDeliveriesQueryDto } from '../../src/modules/webhook/api/dto/webhook.dto.js';

/**
 * Every paged list refuses a bad page (or skip) and limit the same pydantic way, reporting both. One
 * table instead of one copy per route's e2e test; the e2e tests check that each route uses its DTO.
 */
const PAGED_QUERIES = [
  { route: 'GET /campaigns', dto: ListCampaignsQueryDto, offset: 'page', maxLimit: 100 },
  { route: 'GET /blacklists', dto: ListBlacklistsQueryDto, offset: 'page', maxLimit: 100 },
  {
    route: 'GET /blacklists/{id}/phone-numbers',
    dto: ListBlacklistNumbersQueryDto,
    offset: 'skip',
    maxLimit: 1000,
  },
  { route: 'GET /campaigns/{id}/targets', dto: ListTargetsQueryDto, offset: 'page', maxLimit: 100 },
  { route: 'GET /call-logs', dto: ListCallLogsQueryDto, offset: 'page', maxLimit: 1000 },
  {
    route: 'GET /campaigns/{id}/webhooks/deliveries',
    dto: ListDeliveriesQueryDto,
    offset: 'page',
    maxLimit: 1000,
  },
] as const;

const pipe = new PydanticValidationPipe();

async function detailOf(dto: new () => object, query: Record<string, string>) {
  const error = await pipe.transform(query, { type: 'query', metatype: dto }).catch((e) => e);
  expect(error).toBeInstanceOf(RequestValidationError);
  // Declaration order decides the order of the items; compare by field.
  return [...(error as RequestValidationError).items].sort((a, b) =>
    String(a.loc[1]).localeCompare(String(b.loc[1])),
  );
}

describe.each(PAGED_QUERIES)('$route paging', ({ dto, offset, maxLimit }) => {
  it(`refuses ${offset} < 0 and limit < 1 together`, async () => {
    const detail = await detailOf(dto, { [offset]: '-1', limit: '0' });
    expect(detail).toEqual(
      [
        {
          type: 'greater_than_equal',
          loc: ['query', offset],
          msg: 'Input should be greater than or equal to 0',
          input: '-1',
          ctx: { ge: 0 },
        },
        {
          type: 'greater_than_equal',
          loc: ['query', 'limit'],
          msg: 'Input should be greater than or equal to 1',
          input: '0',
          ctx: { ge: 1 },
        },
      ].sort((a, b) => a.loc[1].localeCompare(b.loc[1])),
    );
  });

  it(`refuses a limit above ${maxLimit}`, async () => {
    expect(await detailOf(dto, { limit: String(maxLimit + 1) })).toEqual([
      {
        type: 'less_than_equal',
        loc: ['query', 'limit'],
        msg: `Input should be less than or equal to ${maxLimit}`,
        input: String(maxLimit + 1),
        ctx: { le: maxLimit },
      },
    ]);
  });

  it('refuses text where an integer belongs, with the raw string as input', async () => {
    const detail = await detailOf(dto, { [offset]: 'abc', limit: '1.5' });
    expect(detail).toEqual(
      [
        {
          type: 'int_parsing',
          loc: ['query', offset],
          msg: 'Input should be a valid integer, unable to parse string as an integer',
          input: 'abc',
        },
        {
          type: 'int_parsing',
          loc: ['query', 'limit'],
          msg: 'Input should be a valid integer, unable to parse string as an integer',
          input: '1.5',
        },
      ].sort((a, b) => a.loc[1].localeCompare(b.loc[1])),
    );
  });

  it(`accepts the defaults and the bounds`, async () => {
    await expect(
      pipe.transform({ [offset]: '0', limit: String(maxLimit) }, { type: 'query', metatype: dto }),
    ).resolves.toMatchObject({ [offset]: 0, limit: maxLimit });
  });
});
