-- CreateTable
CREATE TABLE "signInThrottle" (
    "key" TEXT NOT NULL,
    "failures" INTEGER NOT NULL,
    "lastFailureAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "signInThrottle_pkey" PRIMARY KEY ("key")
);

-- CreateIndex
CREATE INDEX "signInThrottle_lastFailureAt_idx" ON "signInThrottle"("lastFailureAt");
