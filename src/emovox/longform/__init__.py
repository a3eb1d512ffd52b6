"""Long-form production: books and articles to chaptered audio with subtitles."""
