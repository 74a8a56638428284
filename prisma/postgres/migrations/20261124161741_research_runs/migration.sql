-- AlterTable
ALTER TABLE "Answer" ADD COLUMN     "report" JSONB;

-- CreateTable
CREATE TABLE "ResearchRun" (
    "id" TEXT NOT NULL,
    "ownerId" TEXT NOT NULL,
    "conversationId" TEXT,
    "question" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "style" TEXT NOT NULL,
    "filters" JSONB NOT NULL,
    "clarifications" JSONB NOT NULL,
    "tasks" JSONB NOT NULL,
    "report" JSONB,
    "answerId" TEXT,
    "note" TEXT,
    "runnerId" TEXT,
    "heartbeatAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ResearchRun_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "ResearchRun_ownerId_createdAt_idx" ON "ResearchRun"("ownerId", "createdAt");

-- CreateIndex
CREATE INDEX "ResearchRun_conversationId_idx" ON "ResearchRun"("conversationId");

-- AddForeignKey
ALTER TABLE "ResearchRun" ADD CONSTRAINT "ResearchRun_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "user"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ResearchRun" ADD CONSTRAINT "ResearchRun_conversationId_fkey" FOREIGN KEY ("conversationId") REFERENCES "Conversation"("id") ON DELETE CASCADE ON UPDATE CASCADE;
