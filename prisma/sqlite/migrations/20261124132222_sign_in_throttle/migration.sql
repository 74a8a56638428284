-- CreateTable
CREATE TABLE "signInThrottle" (
    "key" TEXT NOT NULL PRIMARY KEY,
    "failures" INTEGER NOT NULL,
    "lastFailureAt" DATETIME NOT NULL
);

-- CreateIndex
CREATE INDEX "signInThrottle_lastFailureAt_idx" ON "signInThrottle"("lastFailureAt");
