import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { Tx, UnitOfWork } from '../common/persistence/unit-of-work';

interface TypeOrmTx extends Tx {
  manager: EntityManager;
}

@Injectable()
export class TypeOrmUnitOfWork extends UnitOfWork {
  constructor(private readonly dataSource: DataSource) {
    super();
  }

  run<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    return this.dataSource.transaction((manager) => work({ manager } as TypeOrmTx));
  }
}

export interface SqlResult<T> {
  rows: T[];
  rowCount: number;
}

/** Raw SQL, inside the given transaction when there is one. Adapters only. */
export interface SqlExecutor {
  query<T = any>(sql: string, params?: unknown[]): Promise<SqlResult<T>>;
}

export function sqlExecutor(dataSource: DataSource, tx: Tx | null): SqlExecutor {
  return {
    async query<T>(sql: string, params: unknown[] = []) {
      // A QueryRunner gives the structured result (rows and affected count) for every kind of statement.
      const runner = tx ? (tx as TypeOrmTx).manager.queryRunner! : dataSource.createQueryRunner();
      try {
        const result = await runner.query(sql, params, true);
        const rows = (Array.isArray(result.records) ? result.records : []) as T[];
        return { rows, rowCount: result.affected ?? rows.length };
      } finally {
        if (!tx) await runner.release();
      }
    },
  };
}
