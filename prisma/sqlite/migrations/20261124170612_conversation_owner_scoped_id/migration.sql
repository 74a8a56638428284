-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Answer" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "ownerId" TEXT NOT NULL,
    "conversationId" TEXT,
    "question" TEXT NOT NULL,
    "text" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'running',
    "mode" TEXT NOT NULL,
    "style" TEXT NOT NULL,
    "citations" JSONB NOT NULL,
    "insufficiencies" JSONB NOT NULL,
    "clarification" JSONB,
    "trace" JSONB NOT NULL,
    "confidence" TEXT NOT NULL,
    "safetyFlags" JSONB NOT NULL,
    "models" JSONB NOT NULL,
    "timings" JSONB NOT NULL,
    "report" JSONB,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Answer_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "user" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Answer_ownerId_conversationId_fkey" FOREIGN KEY ("ownerId", "conversationId") REFERENCES "Conversation" ("ownerId", "id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_Answer" ("citations", "clarification", "confidence", "conversationId", "createdAt", "id", "insufficiencies", "mode", "models", "ownerId", "question", "report", "safetyFlags", "status", "style", "text", "timings", "trace", "updatedAt") SELECT "citations", "clarification", "confidence", "conversationId", "createdAt", "id", "insufficiencies", "mode", "models", "ownerId", "question", "report", "safetyFlags", "status", "style", "text", "timings", "trace", "updatedAt" FROM "Answer";
DROP TABLE "Answer";
ALTER TABLE "new_Answer" RENAME TO "Answer";
CREATE INDEX "Answer_ownerId_createdAt_idx" ON "Answer"("ownerId", "createdAt");
CREATE TABLE "new_Conversation" (
    "id" TEXT NOT NULL,
    "ownerId" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,

    PRIMARY KEY ("ownerId", "id"),
    CONSTRAINT "Conversation_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "user" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_Conversation" ("createdAt", "id", "ownerId", "title", "updatedAt") SELECT "createdAt", "id", "ownerId", "title", "updatedAt" FROM "Conversation";
DROP TABLE "Conversation";
ALTER TABLE "new_Conversation" RENAME TO "Conversation";
CREATE INDEX "Conversation_ownerId_updatedAt_idx" ON "Conversation"("ownerId", "updatedAt");
CREATE TABLE "new_Message" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "conversationId" TEXT NOT NULL,
    "ownerId" TEXT NOT NULL,
    "role" TEXT NOT NULL,
    "content" TEXT NOT NULL,
    "parts" JSONB NOT NULL,
    "answerId" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Message_ownerId_conversationId_fkey" FOREIGN KEY ("ownerId", "conversationId") REFERENCES "Conversation" ("ownerId", "id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Message_answerId_fkey" FOREIGN KEY ("answerId") REFERENCES "Answer" ("id") ON DELETE SET NULL ON UPDATE CASCADE
);
INSERT INTO "new_Message" ("answerId", "content", "conversationId", "createdAt", "id", "ownerId", "parts", "role") SELECT "answerId", "content", "conversationId", "createdAt", "id", "ownerId", "parts", "role" FROM "Message";
DROP TABLE "Message";
ALTER TABLE "new_Message" RENAME TO "Message";
CREATE UNIQUE INDEX "Message_answerId_key" ON "Message"("answerId");
CREATE INDEX "Message_ownerId_conversationId_createdAt_idx" ON "Message"("ownerId", "conversationId", "createdAt");
CREATE TABLE "new_ResearchRun" (
    "id" TEXT NOT NULL PRIMARY KEY,
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
    "heartbeatAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "ResearchRun_ownerId_fkey" FOREIGN KEY ("ownerId") REFERENCES "user" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ResearchRun_ownerId_conversationId_fkey" FOREIGN KEY ("ownerId", "conversationId") REFERENCES "Conversation" ("ownerId", "id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_ResearchRun" ("answerId", "clarifications", "conversationId", "createdAt", "filters", "heartbeatAt", "id", "note", "ownerId", "question", "report", "runnerId", "status", "style", "tasks", "updatedAt") SELECT "answerId", "clarifications", "conversationId", "createdAt", "filters", "heartbeatAt", "id", "note", "ownerId", "question", "report", "runnerId", "status", "style", "tasks", "updatedAt" FROM "ResearchRun";
DROP TABLE "ResearchRun";
ALTER TABLE "new_ResearchRun" RENAME TO "ResearchRun";
CREATE INDEX "ResearchRun_ownerId_createdAt_idx" ON "ResearchRun"("ownerId", "createdAt");
CREATE INDEX "ResearchRun_conversationId_idx" ON "ResearchRun"("conversationId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
