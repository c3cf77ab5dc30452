// One build of the user's code (see Tests/BuildFixtures/Ledger): the commit with LedgerCode.buggy.
import LedgerFixture
import SimRunKit

SimRun.main(scenarios: [ledgerScenario(.buggy), searchScenario(.buggy)])
