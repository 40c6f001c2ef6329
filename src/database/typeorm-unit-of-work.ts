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

  async run<T>(work: (tx: Tx) => Promise<T>): Promise<T> {
    let tx: Tx | undefined;
    try {
      const result = await this.dataSource.transaction((manager) => {
        tx = { manager } as TypeOrmTx;
        return this.inTransaction(tx, work);
      });
      this.settled(tx!, true);
      return result;
    } catch (err) {
      if (tx) this.settled(tx, false);
      throw err;
    }
  }
}
