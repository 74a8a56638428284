-- DropForeignKey
ALTER TABLE "Answer" DROP CONSTRAINT "Answer_conversationId_fkey";

-- DropForeignKey
ALTER TABLE "Message" DROP CONSTRAINT "Message_conversationId_fkey";

-- DropForeignKey
ALTER TABLE "ResearchRun" DROP CONSTRAINT "ResearchRun_conversationId_fkey";

-- DropIndex
DROP INDEX "Message_conversationId_createdAt_idx";

-- AlterTable
ALTER TABLE "Conversation" DROP CONSTRAINT "Conversation_pkey",
ADD CONSTRAINT "Conversation_pkey" PRIMARY KEY ("ownerId", "id");

-- CreateIndex
CREATE INDEX "Message_ownerId_conversationId_createdAt_idx" ON "Message"("ownerId", "conversationId", "createdAt");

-- AddForeignKey
ALTER TABLE "Message" ADD CONSTRAINT "Message_ownerId_conversationId_fkey" FOREIGN KEY ("ownerId", "conversationId") REFERENCES "Conversation"("ownerId", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Answer" ADD CONSTRAINT "Answer_ownerId_conversationId_fkey" FOREIGN KEY ("ownerId", "conversationId") REFERENCES "Conversation"("ownerId", "id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ResearchRun" ADD CONSTRAINT "ResearchRun_ownerId_conversationId_fkey" FOREIGN KEY ("ownerId", "conversationId") REFERENCES "Conversation"("ownerId", "id") ON DELETE CASCADE ON UPDATE CASCADE;
