-- CreateTable
CREATE TABLE "signInThrottle" (
    "key" TEXT NOT NULL PRIMARY KEY,
    "failures" INTEGER NOT NULL,
    "lastFailureAt" DATETIME NOT NULL
);
