/**
 * The tests' TypeScript is transpiled by Vite's transform (vitest.config.ts), not by tsc: these check
 * that it emits the decorator metadata tsc would (`emitDecoratorMetadata`): without it Nest cannot
 * tell a provider's constructor parameters (injection by type), and @nestjs/swagger and
 * class-transformer cannot tell a property's type.
 */
import 'reflect-metadata';
import { Injectable, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { plainToInstance } from 'class-transformer';
import { IsInt, IsString, Min, validateSync } from 'class-validator';

@Injectable()
class Clock {
  now(): number {
    return 42;
  }
}

@Injectable()
class Greeter {
  // Injected by its type alone: no @Inject(Clock).
  constructor(readonly clock: Clock) {}
}

@Module({ providers: [Clock, Greeter] })
class GreetingModule {}

class Payload {
  @IsString()
  name: string;

  @IsInt()
  @Min(1)
  count: number;
}

describe('decorator metadata under the test transform', () => {
  it('records constructor parameter and property types', () => {
    expect(Reflect.getMetadata('design:paramtypes', Greeter)).toEqual([Clock]);
    expect(Reflect.getMetadata('design:type', Payload.prototype, 'name')).toBe(String);
    expect(Reflect.getMetadata('design:type', Payload.prototype, 'count')).toBe(Number);
  });

  it('lets Nest inject a provider by its type', async () => {
    const moduleRef = await Test.createTestingModule({ imports: [GreetingModule] }).compile();
    const greeter = moduleRef.get(Greeter);
    expect(greeter.clock).toBeInstanceOf(Clock);
    expect(greeter.clock.now()).toBe(42);
    await moduleRef.close();
  });

  it('lets class-validator validate a DTO', () => {
    const valid = plainToInstance(Payload, { name: 'a', count: 2 });
    expect(validateSync(valid)).toEqual([]);
    const invalid = plainToInstance(Payload, { name: 3, count: 0 });
    expect(
      validateSync(invalid).map((e) => [e.property, Object.keys(e.constraints ?? {}).sort()]),
    ).toEqual([
      ['name', ['isString']],
      ['count', ['min']],
    ]);
  });
});
