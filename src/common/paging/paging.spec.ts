import { pageEnvelope } from './paging.js';

describe('paging envelope', () => {
  it('counts pages and gives the next one, or null on the last page and on an empty result', () => {
    expect(pageEnvelope({ page: 0, limit: 10 }, 25)).toEqual({ page_count: 3, next_page: 1 });
    expect(pageEnvelope({ page: 2, limit: 10 }, 25)).toEqual({ page_count: 3, next_page: null });
    expect(pageEnvelope({ page: 0, limit: 10 }, 0)).toEqual({ page_count: 0, next_page: null });
    expect(pageEnvelope({ page: 7, limit: 10 }, 25)).toEqual({ page_count: 3, next_page: null });
  });
});
