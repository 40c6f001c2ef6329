import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { Tx, UnitOfWork } from '../common/persistence/unit-of-work.js';

export interface TypeOrmTx extends Tx {
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
