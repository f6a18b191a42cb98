package dev.baton.recipes.lock;

import dev.baton.framework.ZPaths;

/** Checks a recipe's path before anything is derived from it, so errors name the recipe and the path the caller gave. */
final class LockPaths {
    private LockPaths() {
    }

    static String validate(String recipe, String path) {
        return ZPaths.validateRecipePath(recipe, path);
    }
}
