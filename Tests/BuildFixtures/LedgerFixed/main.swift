// One build of the user's code (see Tests/BuildFixtures/Ledger): the commit with LedgerCode.fixed.
import LedgerFixture
import SimRunKit

SimRun.main(scenarios: [ledgerScenario(.fixed), searchScenario(.fixed)])
